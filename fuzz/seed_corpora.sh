#!/usr/bin/env bash
# Writes the seed corpus of every fuzz target to OUT/<target>/, one input per file (named by a
# hash of its content), from the files the repository ships: the YAML files under workflows/ and
# the YAML examples of docs/ (sorted by their top-level keys into workflows, GSM models, ECA
# rules and guards dependency files), the lines of the JSON-lines files under workflows/,
# expressions quoted in the workflows, and the lines of fuzz/seeds/*.txt (hex-encoded binary inputs
# for snapshot_reader, window_state, actor_state, rest_api, record_decoder, server_access and
# process_link_message).
#   fuzz/seed_corpora.sh OUT
set -euo pipefail
out=${1:?usage: fuzz/seed_corpora.sh OUT}
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"/{workflow_loader,gsm_model,eca_rules,guards_dependencies,expression,json_value,lr_input,snapshot_reader,window_state,actor_state,rest_api,record_decoder,server_access,process_link_message}

# Saves stdin as a seed of target $1.
save() {
  local data
  data=$(cat)
  [ -n "$data" ] || return 0
  printf '%s\n' "$data" >"$out/$1/$(printf '%s' "$data" | sha1sum | cut -c1-16)"
}

# A YAML document goes to the target whose format its top-level keys belong to.
classify_yaml() {
  local file=$1
  if grep -qE '^actors:' "$file"; then save workflow_loader <"$file"; fi
  if grep -qE '^artifact:' "$file"; then save gsm_model <"$file"; fi
  if grep -qE '^(rules|brokers):' "$file"; then save eca_rules <"$file"; fi
  if grep -qE '^dependencies:' "$file"; then save guards_dependencies <"$file"; fi
  return 0
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while IFS= read -r file; do classify_yaml "$file"; done < <(find workflows -name '*.yaml' | sort)
# The ```yaml blocks of the documentation, one file each.
for doc in docs/*.md; do
  awk -v prefix="$tmp/$(basename "$doc" .md)-" '
    /^```yaml/ { inside = 1; n++; next }
    /^```/     { inside = 0; next }
    inside     { print > (prefix n ".yaml") }' "$doc"
done
for block in "$tmp"/*.yaml; do [ -e "$block" ] && classify_yaml "$block"; done

# Expressions: the quoted values of the keys that hold one in the shipped workflows and rules,
# and the hand-picked ones of fuzz/seeds/expression.txt.
keys='where|expression|emit|when|if|params|group_by|key|value'
{
  grep -rhoE "($keys): *\"[^\"]*\"" workflows docs --include=*.yaml --include=*.md |
    sed -E "s/^($keys): *\"(.*)\"$/\2/"
  cat fuzz/seeds/expression.txt
} | sort -u | while IFS= read -r line; do printf '%s' "$line" | save expression; done

find workflows -name '*.jsonl' -print0 | xargs -0 cat | sort -u |
  while IFS= read -r line; do printf '%s' "$line" | save json_value; done
while IFS= read -r line; do printf '%s' "$line" | save lr_input; done <fuzz/seeds/lr_input.txt
# Binary inputs, one a line in hex (a shell variable cannot hold their zero bytes, so not save).
binary_seeds() {
  while IFS= read -r line; do
    case $line in '' | '#'*) continue ;; esac
    printf '%s' "$line" | perl -ne 'print pack("H*", $_)' >"$tmp/seed.bin"
    mv "$tmp/seed.bin" "$out/$1/$(sha1sum <"$tmp/seed.bin" | cut -c1-16)"
  done <"fuzz/seeds/$1.txt"
}
for target in snapshot_reader window_state actor_state rest_api record_decoder server_access process_link_message; do binary_seeds "$target"; done

for dir in "$out"/*; do echo "$(basename "$dir"): $(ls "$dir" | wc -l) seeds"; done
