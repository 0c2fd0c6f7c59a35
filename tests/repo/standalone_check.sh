#!/usr/bin/env bash
# The repository stands alone: a user's clone has nothing beside it. This check fails when a
# tracked file refers to the folder that sits beside the checkout on the developers' machines
# (or to the macro that used to point at it), and when a relative Markdown link names a file
# that is not in the repository.
#   tests/repo/standalone_check.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"
root=$(pwd -P)

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard)
else
  mapfile -t files < <(find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's#^\./##')
fi

# The patterns are assembled so that this file does not match itself.
sibling='\.\./'"sha""red"
macro='VOLLEY_'"SHA""RED"'_DIR'
status=0
hits=$(printf '%s\0' "${files[@]}" | xargs -0 grep -nE -e "$sibling" -e "$macro" -- 2>/dev/null || true)
if [ -n "$hits" ]; then
  echo "Tracked files refer to a folder outside the repository:"
  echo "$hits"
  status=1
fi

# Relative links in Markdown files must resolve inside the repository.
for f in "${files[@]}"; do
  case "$f" in *.md) ;; *) continue ;; esac
  [ -f "$f" ] || continue
  dir=$(dirname "$f")
  while IFS= read -r target; do
    target=${target%%#*}
    [ -n "$target" ] || continue
    case "$target" in http://*|https://*|mailto:*) continue ;; esac
    resolved=$(realpath -m "$dir/$target")
    if [ ! -e "$dir/$target" ] || [ "${resolved#"$root"/}" = "$resolved" ]; then
      echo "$f: link to '$target', which is not in the repository"
      status=1
    fi
  done < <(grep -oE '\]\([^) ]+\)' "$f" | sed -E 's/^\]\((.*)\)$/\1/')
done

[ "$status" = 0 ] && echo "standalone: ${#files[@]} files checked, no reference outside the repository"
exit "$status"
