// Unified-diff text built by hand, for the scripts that need a diff no git history holds.

/**
 * The diff that creates `file` with `text`: every line added, as `git diff` writes a new file.
 * @param {string} file repository-relative path
 * @param {string} text the file's content
 * @returns {string}
 */
export function addedFileDiff(file, text) {
  if (text === '') return `diff --git a/${file} b/${file}\nnew file mode 100644\n`;
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const body = lines.map((l) => `+${l}\n`).join('');
  const tail = endsWithNewline ? '' : '\\ No newline at end of file\n';
  return `diff --git a/${file} b/${file}\nnew file mode 100644\n--- /dev/null\n+++ b/${file}\n@@ -0,0 +1,${lines.length} @@\n${body}${tail}`;
}
