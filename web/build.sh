#!/bin/sh
# Builds the browser demo's WGSL: the demo shaders in demos/shaders/ and the
# device algorithms' shaders in src/device/shaders/ (wavekit::device), composed
# by `wavekit emit --lang wgsl-browser` into web/gen/ (gitignored). The page
# carries no hand-copied WGSL; it loads only what this script wrote, as listed
# in web/gen/manifest.json.
#
# A shader is emitted for a subgroup size range, so that one file works at any
# size the browser's adapter reports in it: 4..=128 is every size WebGPU allows.
# A shader that cannot be composed for its range is emitted once per fixed size
# in it instead (name.s4.wgsl, ...); the page then picks the adapter's size,
# which needs subgroupMinSize == subgroupMaxSize.
#
# Every shader is also emitted with emulated subgroups (NAME.emulated.wgsl,
# listed under "emulated" in the manifest), for adapters without the
# `subgroups` feature: `--subgroups emulated:S` lowers every subgroup operation
# to workgroup memory and barriers, and the file has no `enable subgroups;` and
# no subgroup builtin (checked below). S = 32: it must divide every shader's
# workgroup size (128 and 256 here), it is the library's own choice for such
# adapters (Target::from_adapter), and it holds contact_sort's largest tile (32
# lanes), so the page sorts the same segments in one tile as on 32-wide GPUs.
#
# WAVEKIT picks the binary (default ./target/release/wavekit); run from anywhere.
set -eu
cd "$(dirname "$0")/.."
wavekit=${WAVEKIT:-./target/release/wavekit}
src=demos/shaders
# The shaders wavekit::device owns (scan, reduce, compact, histogram) live with
# the library.
device_src=src/device/shaders
gen=web/gen
# The emulated subgroup size (see above).
emulated_size=32

rm -rf "$gen"
mkdir -p "$gen"
manifest=""
emulated=""
missing=""

# emit SHADER NAME MIN MAX [LINE REPLACEMENT]: composes SHADER.wgsl (from
# src/device/shaders/, else demos/shaders/)
# for subgroup sizes MIN..=MAX into gen/NAME.wgsl and lists it in the manifest.
# LINE (a regular expression) and REPLACEMENT edit what the shader's header
# says the host may edit (`alias T`, a constant); LINE must match, or the
# shader has changed under the page.
emit() {
    source="$src/$1.wgsl"
    if [ -f "$device_src/$1.wgsl" ]; then
        source="$device_src/$1.wgsl"
    fi
    if [ ! -f "$source" ]; then
        case " $missing " in *" $1 "*) ;; *) missing="$missing $1" ;; esac
        return
    fi
    # A device shader that says `// Append: a.wgsl (...), b.wgsl (...)`
    # gets those files after it, as wavekit::device::shaders gives it.
    appended=$(sed -n 's/^\/\/ Append: //p' "$source" | grep -o '[a-z_0-9]*\.wgsl' || true)
    if [ -n "$appended" ]; then
        files=""
        for f in $appended; do files="$files $device_src/$f"; done
        # shellcheck disable=SC2086 # one word per file
        cat "$source" $files >"$gen/.$2.appended.wgsl"
        source="$gen/.$2.appended.wgsl"
    fi
    if [ -n "${5:-}" ]; then
        if ! grep -q "$5" "$source"; then
            echo "web: $2: no line of $source matches '$5'" >&2
            exit 1
        fi
        edited="$gen/.$2.wgsl"
        sed "s/$5/$6/" "$source" >"$edited"
        source=$edited
    fi
    if "$wavekit" emit "$source" --lang wgsl-browser --subgroup-range "$3..=$4" \
        -o "$gen/$2.wgsl" 2>"$gen/.err"; then
        entry="\"$2\": {\"range\": [$3, $4], \"file\": \"$2.wgsl\"}"
    else
        files=""
        s=$3
        while [ "$s" -le "$4" ]; do
            if ! "$wavekit" emit "$source" --lang wgsl-browser --subgroup-size "$s" -o "$gen/$2.s$s.wgsl"; then
                echo "web: $2: cannot be emitted at subgroup size $s (above), nor for $3..=$4:" >&2
                cat "$gen/.err" >&2
                exit 1
            fi
            files="$files${files:+, }\"$s\": \"$2.s$s.wgsl\""
            s=$((s * 2))
        done
        echo "web: $2: emitted per subgroup size, as it cannot be for $3..=$4: $(cat "$gen/.err")"
        entry="\"$2\": {\"range\": [$3, $4], \"sizes\": {$files}}"
    fi
    manifest="$manifest${manifest:+,
  }$entry"
    emit_emulated "$source" "$2"
    rm -f "$gen/.err" "$gen/.$2.wgsl" "$gen/.$2.emulated.wgsl" "$gen/.$2.appended.wgsl"
}

# emit_emulated SOURCE NAME: composes SOURCE with emulated subgroups into
# gen/NAME.emulated.wgsl and lists it under "emulated" in the manifest. The
# emulation's contract (every wavekit call reached by the whole workgroup)
# excludes the single-pass look-back entry points (scan_lookback,
# select_lookback), whose look-back only the first subgroup makes: their
# shaders say so with `const LOOK_BACK = true;`, edited to false here as the
# library and the demos do on emulated subgroups, and the composer prunes what
# the constant turns off. The page does not run them there (it runs
# reduce-then-scan: count_tiles/scatter, tile_reduce/scan_tile_sums/tile_scan).
emit_emulated() {
    edited="$gen/.$2.emulated.wgsl"
    sed 's/^const LOOK_BACK = true;$/const LOOK_BACK = false;/' "$1" >"$edited"
    case "$2" in
    scan | compact)
        if ! grep -q '^const LOOK_BACK = false;$' "$edited"; then
            echo "web: $2: $1 has no 'const LOOK_BACK = true;' line (build.sh turns the look-back off with it)" >&2
            exit 1
        fi
        ;;
    esac
    out="$gen/$2.emulated.wgsl"
    if ! "$wavekit" emit "$edited" --lang wgsl-browser --subgroups "emulated:$emulated_size" -o "$out"; then
        echo "web: $2: cannot be emitted with emulated subgroups of $emulated_size (above)" >&2
        exit 1
    fi
    # What a browser without the feature would refuse: the directive, a
    # subgroup builtin function (subgroupAdd, quadSwapX, ...) or value.
    if grep -n -E 'enable subgroups|subgroup_uniformity|@builtin\((subgroup_|num_subgroups)|(^|[^A-Za-z0-9_])(subgroup|quad)[A-Z]' "$out" >&2; then
        echo "web: $out: uses subgroups (the lines above), though emulated" >&2
        exit 1
    fi
    emulated="$emulated${emulated:+,
      }\"$2\": {\"range\": [$emulated_size, $emulated_size], \"file\": \"$2.emulated.wgsl\"}"
}

emit normalise normalise 4 128
emit reduce reduce 4 128
emit reduce reduce.u32 4 128 '^alias T = f32;' 'alias T = u32;'
emit scan scan 4 128
emit compact compact 4 128
emit histogram histogram 4 128
# Subgroup tiles of 2^LOG2_TILE lanes, which the smallest subgroup must hold:
# one file per tile size, for the sizes that hold it; the page takes the
# largest tile the adapter's smallest subgroup holds.
emit contact_sort contact_sort.tile2 4 128 '^const LOG2_TILE = .*' 'const LOG2_TILE = 2u;'
emit contact_sort contact_sort.tile3 8 128 '^const LOG2_TILE = .*' 'const LOG2_TILE = 3u;'
emit contact_sort contact_sort.tile4 16 128 '^const LOG2_TILE = .*' 'const LOG2_TILE = 4u;'
emit contact_sort contact_sort.tile5 32 128 '^const LOG2_TILE = .*' 'const LOG2_TILE = 5u;'

printf '{\n  %s,\n  "emulated": {\n    "subgroupSize": %s,\n    "shaders": {\n      %s\n    }\n  }\n}\n' \
    "$manifest" "$emulated_size" "$emulated" >"$gen/manifest.json"
count=$(find "$gen" -name '*.wgsl' | wc -l)
echo "web: $count WGSL file(s) in $gen/${missing:+ (no shader yet:$missing)}"
