#!/bin/sh
# Builds the browser demo's WGSL: the demo shaders in demos/shaders/ and the
# device algorithms' shaders in src/device/shaders/ (wavekit::device: the
# single-pass scan and compaction, the OneSweep radix sort, ...), composed
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
# Where one emit keeps its intermediate files: removed after it, kept where
# the build fails (the composer's errors point into them).
tmp="$gen/.tmp"

# prepare SHADER NAME [LINE REPLACEMENT]...: sets $source to a copy of
# SHADER.wgsl (from src/device/shaders/, else demos/shaders/) with the files
# its header appends and every edit made, or to "" (and lists SHADER as
# missing) where there is no such shader. Each LINE (a regular expression)
# and REPLACEMENT edit what the shader's header says the host may edit
# (`alias T`, a constant); LINE must match, or the shader has changed under
# the page.
prepare() {
    source="$src/$1.wgsl"
    if [ -f "$device_src/$1.wgsl" ]; then
        source="$device_src/$1.wgsl"
    fi
    if [ ! -f "$source" ]; then
        case " $missing " in *" $1 "*) ;; *) missing="$missing $1" ;; esac
        source=""
        return 0
    fi
    name=$2
    shift 2
    rm -rf "$tmp"
    mkdir -p "$tmp"
    # A device shader that says `// Append: a.wgsl (...), b.wgsl (...)`
    # (the list may go on over the comment lines up to the code) gets those
    # files after it, as wavekit::device::shaders gives it; the words in
    # parentheses are not files.
    appended=$(sed -n '/^\/\/ Append: /,/^[^\/]/s|^// \{0,1\}||p' "$source" | tr '\n' ' ' |
        sed 's/^Append: //; s/([^)]*)//g' | grep -o '[a-z_0-9]*\.wgsl' || true)
    files=""
    for f in $appended; do files="$files $device_src/$f"; done
    # shellcheck disable=SC2086 # one word per file
    cat "$source" $files >"$tmp/$name.wgsl"
    edits=0
    while [ $# -ge 2 ]; do
        if ! grep -q "$1" "$tmp/$name.wgsl"; then
            echo "web: $name: no line of $source (as appended and edited) matches '$1'" >&2
            exit 1
        fi
        edits=$((edits + 1))
        sed "s/$1/$2/" "$tmp/$name.wgsl" >"$tmp/$name.$edits.wgsl"
        mv "$tmp/$name.$edits.wgsl" "$tmp/$name.wgsl"
        shift 2
    done
    if [ $# -ne 0 ]; then
        echo "web: $name: an edit '$1' without its replacement" >&2
        exit 1
    fi
    source="$tmp/$name.wgsl"
}

# emit SHADER NAME MIN MAX [LINE REPLACEMENT]...: composes SHADER.wgsl, with
# the edits (see prepare), for subgroup sizes MIN..=MAX into gen/NAME.wgsl
# and with emulated subgroups into gen/NAME.emulated.wgsl, and lists both in
# the manifest.
emit() {
    shader=$1 name=$2 min=$3 max=$4
    shift 4
    prepare "$shader" "$name" "$@"
    if [ -n "$source" ]; then
        emit_native "$source" "$name" "$min" "$max"
        emit_emulated "$source" "$name"
    fi
    rm -rf "$tmp"
}

# emit_native SOURCE NAME MIN MAX: composes SOURCE (as prepared) for
# subgroup sizes MIN..=MAX into gen/NAME.wgsl, or, where it cannot be for
# the range, once per size in it, and lists it in the manifest.
emit_native() {
    if "$wavekit" emit "$1" --lang wgsl-browser --subgroup-range "$3..=$4" \
        -o "$gen/$2.wgsl" 2>"$tmp/err"; then
        entry="\"$2\": {\"range\": [$3, $4], \"file\": \"$2.wgsl\"}"
    else
        files=""
        s=$3
        while [ "$s" -le "$4" ]; do
            if ! "$wavekit" emit "$1" --lang wgsl-browser --subgroup-size "$s" -o "$gen/$2.s$s.wgsl"; then
                echo "web: $2: cannot be emitted at subgroup size $s (above), nor for $3..=$4:" >&2
                cat "$tmp/err" >&2
                exit 1
            fi
            files="$files${files:+, }\"$s\": \"$2.s$s.wgsl\""
            s=$((s * 2))
        done
        echo "web: $2: emitted per subgroup size, as it cannot be for $3..=$4: $(cat "$tmp/err")"
        entry="\"$2\": {\"range\": [$3, $4], \"sizes\": {$files}}"
    fi
    manifest="$manifest${manifest:+,
  }$entry"
}

# emit_emulated SOURCE NAME: composes SOURCE (as prepared) with emulated
# subgroups into gen/NAME.emulated.wgsl and lists it under "emulated" in
# the manifest. The emulation's contract is that the whole workgroup
# reaches every wavekit call; the single-pass look-back of scan.wgsl and
# compact.wgsl (look_back.wgsl) walks with the subgroup of thread 0 alone
# where `const WINDOW = true;`, so it is edited to false here, as the
# library does on emulated subgroups (Context::look_back_edits): thread 0
# walks alone, with no subgroup operation, and the composer prunes the
# window walk. The rest of the protocol (the fallback, made by the whole
# workgroup) needs no forward-progress guarantee, so the page runs the
# single pass (scan_lookback, select_lookback) on emulated subgroups too.
emit_emulated() {
    edited="$tmp/$2.emulated.wgsl"
    sed 's/^const WINDOW = true;$/const WINDOW = false;/' "$1" >"$edited"
    case "$2" in
    scan | compact)
        if ! grep -q '^const WINDOW = false;$' "$edited"; then
            echo "web: $2: $1 has no 'const WINDOW = true;' line (build.sh turns the look-back's window walk off with it)" >&2
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

# emit_onesweep BLOCK SUBGROUPS NARROW MIN MAX | emulated: the OneSweep
# radix sort's module (src/device/radix_sort/onesweep.rs), one for every
# pass (a pass's number is the length of its pass_info binding), as
# gen/radix_onesweep.blockBLOCK.wgsl for subgroup sizes MIN..=MAX, or with
# emulated subgroups (.emulated.wgsl). u32 keys alone over all 32 bits: 4
# passes of 8 bits; 8 keys a thread (the edit checks the default the page's tile size
# assumes); SUBGROUPS rows of digit counters (BLOCK / the smallest
# subgroup size); NARROW ballots of 32 lanes (subgroups of at most 32).
# SPIN_WITH_RMW stays true: the page cannot tell a CPU adapter, for which
# the library picks it, and it is correct on any.
emit_onesweep() {
    name="radix_onesweep.block$1"
    prepare radix_onesweep "$name" \
        '^const BLOCK = 256u;$' "const BLOCK = $1u;" \
        '^const ITEMS = 8u;$' 'const ITEMS = 8u;' \
        '^const SUBGROUPS = 8u;$' "const SUBGROUPS = $2u;" \
        '^const NARROW = false;$' "const NARROW = $3;"
    if [ -n "$source" ]; then
        if [ "$4" = emulated ]; then
            emit_emulated "$source" "$name"
        else
            emit_native "$source" "$name" "$4" "$5"
        fi
    fi
    rm -rf "$tmp"
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
# The OneSweep sort, in the shapes the library picks through wgpu
# (Shape::for_context) for 256 threads at most (WebGPU's default
# maxComputeInvocationsPerWorkgroup): 256 × 8 keys where every subgroup has
# at least 8 lanes, else 128 × 8, both with 32 counter rows; the page takes
# the larger one the adapter's smallest subgroup and workgroup memory
# hold. NARROW stays false: the range reaches 128 lanes. Emulated (S = 32):
# 256 × 8, 256 / 32 = 8 rows, NARROW (as the library at S <= 32); the
# emulated files are named block256, the shape they have.
emit_onesweep 128 32 false 4 128
emit_onesweep 256 32 false 8 128
emit_onesweep 256 $((256 / emulated_size)) true emulated
printf '{\n  %s,\n  "emulated": {\n    "subgroupSize": %s,\n    "shaders": {\n      %s\n    }\n  }\n}\n' \
    "$manifest" "$emulated_size" "$emulated" >"$gen/manifest.json"
count=$(find "$gen" -name '*.wgsl' | wc -l)
echo "web: $count WGSL file(s) in $gen/${missing:+ (no shader yet:$missing)}"
