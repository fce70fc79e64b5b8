#!/usr/bin/env node
import '../dist/ag-run.bundle.mjs';
