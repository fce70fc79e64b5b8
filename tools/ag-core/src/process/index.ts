export * from './env.js';
export * from './tail-buffer.js';
export * from './runner.js';
export * from './limits.js';
export * from './sandbox.js';
export * from './search-path.js';
export * from './identity.js';
export * from './toolchain.js';
export { groupCpuMs } from './cpu.js';
