export declare const PACKAGES: readonly string[];
export declare function importsPythonTools(python: string): boolean;
export declare function probeHost(): { isRoot: boolean; hasAptGet: boolean };
export declare function ensurePythonTools(options: {
  python: string;
  custom: boolean;
  isRoot: boolean;
  hasAptGet: boolean;
  imports?: (python: string) => boolean;
  exec?: (cmd: string, args: readonly string[]) => number;
  log?: (line: string) => void;
}): string | null;
