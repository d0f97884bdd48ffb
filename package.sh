#!/usr/bin/env bash
# Makes the zip the contest server takes: sources, data, Cargo.lock, the dependencies vendored (the
# server builds offline), compile.sh and run.sh at the top. Usage: ./package.sh [OUT.zip]
set -euo pipefail
cd "$(dirname "$0")"
out="$(realpath -m "${1:-codevs-reborn.zip}")"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
# data/ is built into the binary (src/data.rs), so the server needs it to compile.
cp -r Cargo.toml Cargo.lock compile.sh run.sh src benches data "$stage/"
mkdir -p "$stage/.cargo"
cargo vendor --locked "$stage/vendor" > /dev/null
# Keep the native build flags and add the vendored source replacement (a relative directory is
# read from the folder holding .cargo, so the zip builds wherever it is unpacked).
cat .cargo/config.toml - > "$stage/.cargo/config.toml" <<'TOML'

[source.crates-io]
replace-with = "vendored-sources"

[source.vendored-sources]
directory = "vendor"
TOML
rm -f "$out"
if command -v zip > /dev/null; then
  (cd "$stage" && zip -qr "$out" .)
else
  python3 - "$stage" "$out" <<'PY'
import os, sys, zipfile
stage, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in os.walk(stage):
        for f in files:
            path = os.path.join(root, f)
            info = zipfile.ZipInfo.from_file(path, os.path.relpath(path, stage))
            with open(path, "rb") as fh:
                z.writestr(info, fh.read(), zipfile.ZIP_DEFLATED)
PY
fi
echo "wrote $out ($(du -h "$out" | cut -f1)); the server runs compile.sh, then run.sh"
