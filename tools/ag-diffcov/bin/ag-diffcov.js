#!/usr/bin/env node
import '../dist/ag-diffcov.bundle.mjs';
