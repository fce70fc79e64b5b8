#!/usr/bin/env node
import '../dist/ag-oracle.bundle.mjs';
