#!/usr/bin/env node
import '../dist/ag-mutate.bundle.mjs';
