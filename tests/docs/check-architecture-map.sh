#!/usr/bin/env bash
# Checks that docs/architecture.md names every top-level source folder and that no file refers to a workspace outside the repository (nor the README or docs/ to DESIGN.md).
#   tests/docs/check-architecture-map.sh [REPO]      (default: the repository holding this script)
# A top-level source folder holds (anywhere below it) a .cpp, .h, .cuh, .cu, .py or .sh file or a
# CMakeLists.txt; hidden folders (.ci, .git) are not. "Named" means written as a path (`NAME/...`)
# or as a module in bold (**NAME**).
# The files read are git's tracked files when REPO is a git checkout, else every file outside build*/.
set -euo pipefail
repo=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$repo"
map=docs/architecture.md
[[ -f $map ]] || { echo "FAIL: $repo has no $map" >&2; exit 1; }

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list_files() { git ls-files; }
else
  list_files() { find . -type f -not -path './.*' -not -path './build*' | sed 's|^\./||'; }
fi

failed=0
folders=$(list_files | grep -E '^[^./][^/]*/' | grep -E '\.(cpp|h|cuh|cu|py|sh)$|(^|/)CMakeLists\.txt$' | cut -d/ -f1 | sort -u)
for folder in $folders; do
  if ! grep -qE "(^|[^A-Za-z0-9_.-])${folder}/|\*\*${folder}\*\*" "$map"; then
    echo "FAIL: top-level folder '$folder/' holds sources but $map does not name it (add it to \"The other folders\")" >&2
    failed=1
  fi
done

# The repository stands alone: a clone has no sibling folders, so nothing may point at one.
outside='\.\./'"shared"
hits=$(list_files | grep -v '^tests/docs/check-architecture-map\.sh$' | tr '\n' '\0' |
       xargs -0 grep -nIE "$outside" -- 2>/dev/null || true)
if [[ -n $hits ]]; then
  echo "FAIL: these lines refer to a folder outside the repository (use docs/architecture.md or another page of docs/):" >&2
  echo "$hits" >&2
  failed=1
fi

# DESIGN.md lived outside the repository: the README and docs/ name none (a newcomer cannot open it).
design=$(list_files | grep -E '^(README\.md|docs/.*\.md)$' | tr '\n' '\0' | xargs -0 grep -nF "DESIGN"".md" -- 2>/dev/null || true)
if [[ -n $design ]]; then
  echo "FAIL: these lines of the README or docs/ name DESIGN.md, which is not in the repository (point to docs/ instead):" >&2
  echo "$design" >&2
  failed=1
fi

[[ $failed == 0 ]] && echo "ok: $map names all $(echo "$folders" | wc -w) top-level source folders; no reference outside the repository"
exit $failed
