#!/bin/sh
# pipeline-fault.sh WHO FILE TEXT [LOG]
#
# A step the pipeline could not do (an install that failed, no runner found): prints
# "WHO: TEXT (HOLD)" on stderr and appends TEXT as one line to FILE, followed by the last
# lines of LOG when one is given. The pipeline passes each line of FILE to ag-decide as
# --pipeline-fault, so the verdict, a HOLD, names the step and what it said.
# Exit: 0 written; 3 on bad usage or when FILE cannot be written.
set -u
[ $# -eq 3 ] || [ $# -eq 4 ] || { echo "pipeline-fault.sh: usage: pipeline-fault.sh WHO FILE TEXT [LOG]" >&2; exit 3; }
who=$1 file=$2 text=$3
if [ $# -eq 4 ] && [ -s "$4" ]; then
  text="$text: $(tail -n 3 "$4" | tr -s '\n\t' '  ')"
fi
echo "$who: $text (HOLD)" >&2
printf '%s\n' "$text" | tr -s '\r' ' ' >>"$file" || { echo "pipeline-fault.sh: cannot write $file" >&2; exit 3; }
