#!/usr/bin/env node
import '../dist/ag-decide.bundle.mjs';
