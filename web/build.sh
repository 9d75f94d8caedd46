#!/bin/sh
# Builds the browser demo's WGSL: the demo shaders in demos/shaders/ and the
# device algorithms' shaders in src/device/shaders/ (wavekit::device: the
# single-pass scan and compaction, the OneSweep radix sort, ...), composed
# by `wavekit emit --lang wgsl-browser` into web/gen/ (gitignored). The page
# carries no hand-copied WGSL; it loads only what this script wrote, as listed
# in web/gen/manifest.json. The manifest's "compile_only" lists the rest of
# the device shaders (top-k, merge sort, by-key, ...: the last part of this
# script), which the page does not run: the browser test (web/test/)
# compiles every entry point of them and of the page's, so that a shader
# the browser's compiler refuses (WGSL's uniformity analysis) fails there.
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
# compile's lists (its shaders are not the page's), where emit and
# emit_onesweep list into the page's (into=page); and every device shader
# file composed, appended ones included (covered).
compile_native=""
compile_emulated=""
into=page
covered=""
# Where one emit keeps its intermediate files: removed after it, kept where
# the build fails (the composer's errors point into them).
tmp="$gen/.tmp"

# prepare SHADER NAME [LINE REPLACEMENT]...: sets $source to a copy of
# SHADER.wgsl (from src/device/shaders/, else demos/shaders/) with the files
# its header appends and every edit made, or to "" (and lists SHADER as
# missing) where there is no such shader. Each LINE (a regular expression)
# and REPLACEMENT edit what the shader's header says the host may edit
# (`alias T`, a constant); LINE must match, or the shader has changed under
# the page. Three words are not edits: `--append-network SEGMENT` appends
# the network FixedSegmentedSort writes for segments of SEGMENT in grains of
# 4 (`wavekit network`), and `--native` and
# `--emulated` make the edits after them (up to the other word) those of
# the native or the emulated form alone: made only where $form (native,
# unless compile sets it) is that form.
form=native
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
    covered="$covered $1.wgsl"
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
    covered="$covered $appended"
    # shellcheck disable=SC2086 # one word per file
    cat "$source" $files >"$tmp/$name.wgsl"
    edits=0
    only=""
    while [ $# -ge 1 ]; do
        case "$1" in
        --native | --emulated)
            only=${1#--}
            shift
            continue
            ;;
        esac
        [ $# -ge 2 ] || break
        if [ -n "$only" ] && [ "$only" != "$form" ]; then
            shift 2
            continue
        fi
        if [ "$1" = --append-network ]; then
            "$wavekit" network --segment "$2" >>"$tmp/$name.wgsl"
            shift 2
            continue
        fi
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
    if [ "$into" = page ]; then
        manifest="$manifest${manifest:+,
  }$entry"
    else
        compile_native="$compile_native${compile_native:+,
      }$entry"
    fi
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
    entry="\"$2\": {\"range\": [$emulated_size, $emulated_size], \"file\": \"$2.emulated.wgsl\"}"
    if [ "$into" = page ]; then
        emulated="$emulated${emulated:+,
      }$entry"
    else
        compile_emulated="$compile_emulated${compile_emulated:+,
      }$entry"
    fi
}

# compile SHADER NAME [EDIT]...: a device shader composed as a
# wavekit::device algorithm composes it through wgpu, for the browser
# test to compile (every entry point's pipeline) but not to run (the page
# has no demo of it): as emit does, for subgroup sizes 4..=128 into
# gen/NAME.wgsl and with emulated subgroups into gen/NAME.emulated.wgsl,
# listed under "compile_only" in the manifest (its "native" and
# "emulated"), apart from the page's shaders. The EDITs are prepare's: the
# parameters the host sets, for one typical configuration (u32 keys and
# values where the algorithm takes a type; the defaults it picks through
# wgpu), those after --native or --emulated where the library's choice
# depends on whether subgroups are emulated (Target::is_emulated; the
# look-back's WINDOW is emit_emulated's, as for the page). A shader that
# is not there is an error: the list below covers every device shader.
compile() {
    shader=$1 name=$2
    shift 2
    into=compile
    prepare "$shader" "$name" "$@"
    if [ -z "$source" ]; then
        echo "web: $name: no shader $shader.wgsl in $device_src/" >&2
        exit 1
    fi
    emit_native "$source" "$name" 4 128
    form=emulated
    prepare "$shader" "$name" "$@"
    emit_emulated "$source" "$name"
    form=native
    into=page
    rm -rf "$tmp"
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
# --- Compiled, not run: every other shader a wavekit::device algorithm
# builds through wgpu (src/device/*.rs compose them), each in one typical
# configuration, so that the browser's compiler (Tint: WGSL's uniformity
# analysis, its limits) sees them all. The library's choices on emulated
# subgroups that differ are the --native / --emulated edits.
# The edits that make a compaction (compaction.rs) drop SHUFFLE_BEFORE on
# emulated subgroups (each shuffle a barrier there).
no_shuffle="^const SHUFFLE_BEFORE = true;$"
keep_all='fn keep(x: T) -> bool { return true; }'
# The edit that makes every binding writable (shaders.rs's `writable`:
# wgpu binds a buffer read-only or read-write in one dispatch), with its
# replacement 'var<storage, read_write> '.
writable='var<storage, read> '
# Context::with_clears: the clears of every algorithm with temp state.
compile zero zero
# Scan (scan.rs): the last n mod 4 elements of the u32 sum; with an
# operator (scan_operator.rs), an f32 sum in scan.wgsl's tiles, combined in
# tile order (SUM false, the look-back's ORDERED_WINDOW), thread 0 walking
# alone (WINDOW false: the library's choice through wgpu).
compile scan_tail scan_tail
compile scan scan.op '^alias T = u32;$' 'alias T = f32;' '^const SUM = true;$' 'const SUM = false;' \
    '^const ORDERED_WINDOW = false;$' 'const ORDERED_WINDOW = true;' '^const WINDOW = true;$' 'const WINDOW = false;'
# Reduce (reduce.rs): the final pass; TransformReduce (transform_reduce.rs):
# u32 elements summed as f32.
compile reduce_final reduce_final
compile reduce reduce.transform '^alias T = f32;$' 'alias T = u32;' '^alias U = T;$' 'alias U = f32;' \
    '^fn transform(x: T) -> U .*' 'fn transform(x: T) -> U { return f32(x); }'
compile reduce_final reduce_final.transform '^alias T = f32;$' 'alias T = u32;' '^alias U = T;$' 'alias U = f32;' \
    '^fn transform(x: T) -> U .*' 'fn transform(x: T) -> U { return f32(x); }'
# The compaction's other forms (compaction.rs): PartitionIf (8 elements a
# thread through wgpu), SelectFlagged (u32 flags, a sixth binding), Unique,
# RunLengthEncode's run starts (then run_length.wgsl), the three-way
# partition (its two predicates and outputs).
compile compact compact.partition '^const PARTITION = false;$' 'const PARTITION = true;' \
    '^const ITEMS = 16u;$' 'const ITEMS = 8u;' --emulated "$no_shuffle" 'const SHUFFLE_BEFORE = false;'
compile compact compact.flagged '^fn keep(x: T) -> bool .*' "$keep_all" \
    '^fn keep_at(i: u32, x: T) -> bool .*' \
    '@group(0) @binding(5) var<storage, read> flags: array<u32>;\nfn keep_at(i: u32, x: T) -> bool { return flags[min(i, arrayLength(\&flags) - 1u)] != 0u; }' \
    --emulated "$no_shuffle" 'const SHUFFLE_BEFORE = false;'
compile compact compact.unique '^const UNIQUE = false;$' 'const UNIQUE = true;' '^fn keep(x: T) -> bool .*' "$keep_all" \
    --emulated "$no_shuffle" 'const SHUFFLE_BEFORE = false;'
compile compact compact.run_starts '^const RUN_STARTS = false;$' 'const RUN_STARTS = true;' \
    '^fn keep(x: T) -> bool .*' "$keep_all" --emulated "$no_shuffle" 'const SHUFFLE_BEFORE = false;'
compile run_length run_length
compile compact compact.three_way \
    '^fn keep(x: T) -> bool .*' 'fn first_part(x: T) -> bool { return x < 100u; }\nfn keep(x: T) -> bool { return first_part(x); }' \
    '^fn keep_second(x: T) -> bool .*' 'fn second_part(x: T) -> bool { return x < 200u; }\nfn keep_second(x: T) -> bool { return second_part(x); }' \
    '^fn write_unselected(i: u32, x: T) {}$' '' \
    '^fn write_second(i: u32, x: T) {}$' '@group(0) @binding(5) var<storage, read_write> second_out: array<T>;\n@group(0) @binding(6) var<storage, read_write> unselected_out: array<T>;\nfn write_second(i: u32, x: T) { second_out[i] = x; }\nfn write_unselected(i: u32, x: T) { unselected_out[i] = x; }' \
    --emulated "$no_shuffle" 'const SHUFFLE_BEFORE = false;'
# ReduceByKey (by_key.rs): u32 keys and sums, 12 elements a thread through
# wgpu; the block scan by subgroup shuffles and the window walk, but on
# emulated subgroups.
compile by_key by_key '^const ITEMS = 8u;$' 'const ITEMS = 12u;' \
    --native '^const SUBGROUP_SCAN = false;$' 'const SUBGROUP_SCAN = true;' '^const WINDOW = false;$' 'const WINDOW = true;'
# ReduceByKey and ScanByKey below 4 elements (by_key.rs).
compile by_key_few by_key_few
# Segmented scans and reductions (segmented.rs: the user-operator form of
# the reduction, and both ones' form for fewer than 4 elements), arg-reductions
# (arg_reduce.rs, segmented_arg.rs: f32 ArgMin), adjacent differences
# (every binding writable), binary search (binary_search.rs), the range and
# multi-channel histograms (histogram.rs: 256 bins of u32, the range's
# levels in workgroup memory; RGBA pixels, 3 channels counted).
compile segmented segmented
compile segmented_reduce segmented_reduce
compile segmented_few segmented_few
compile segmented_arg segmented_arg
compile arg_reduce arg_reduce
compile adjacent_difference adjacent_difference "$writable" 'var<storage, read_write> '
compile adjacent_difference_few adjacent_difference_few "$writable" 'var<storage, read_write> '
compile search search
compile histogram_multi histogram_range '^const LEVELS_IN_SHARED = false;$' 'const LEVELS_IN_SHARED = true;' \
    '^const SHARED_LEVELS = 1u;$' 'const SHARED_LEVELS = 257u;' \
    '^fn channel_bin(c: u32, x: T) -> u32 .*' 'fn channel_bin(c: u32, x: T) -> u32 { return range_bin(c, x); }'
compile histogram_multi histogram_multi '^const CHANNELS = 1u;$' 'const CHANNELS = 4u;' '^const ACTIVE = 1u;$' 'const ACTIVE = 3u;' \
    '^const TOTAL_BINS = 256u;$' 'const TOTAL_BINS = 768u;' '^const SHARED_BINS = 256u;$' 'const SHARED_BINS = 768u;' \
    '^const BIN_BASE = .*' 'const BIN_BASE = array<u32, 5>(0u, 256u, 512u, 768u, 768u);'
# Sorts of u32 keys with u32 values: the reduce-then-scan radix sort's
# pass (radix_sort/reduce_then_scan.rs: on emulated subgroups), the
# OneSweep pass with values (the page's sorts keys alone; 128 × 8 where
# subgroups may have 4 lanes), the merge sort (merge_sort.rs: 256 × 3
# through wgpu), the three with every binding writable (context.rs's
# `writable`), the segmented sort (segmented_sort.rs: 16 pairs a lane where
# the smallest subgroup has 4 lanes, 8 on emulated subgroups of 32, both with
# the shader's loop form of the network), top-k (top_k.rs).
compile radix_sort radix_sort "$writable" 'var<storage, read_write> ' '^const PAIRS = false;$' 'const PAIRS = true;'
compile radix_tile radix_tile
compile radix_onesweep radix_onesweep.pairs "$writable" 'var<storage, read_write> ' \
    '^const PAIRS = false;$' 'const PAIRS = true;' \
    --native '^const BLOCK = 256u;$' 'const BLOCK = 128u;' '^const SUBGROUPS = 8u;$' 'const SUBGROUPS = 32u;' \
    --emulated '^const NARROW = false;$' 'const NARROW = true;'
compile merge_sort merge_sort "$writable" 'var<storage, read_write> ' '^const ITEMS = 17u;$' 'const ITEMS = 3u;'
compile segmented_sort segmented_sort \
    --native '^const GRAIN = 8u;$' 'const GRAIN = 16u;' \
    '^fn subgroup_sorts(mine: bool) -> bool .*' 'fn subgroup_sorts(mine: bool) -> bool {\n    return sg::any_true(mine);\n}'
compile top_k top_k '^const PAIRS = false;$' 'const PAIRS = true;'
# FixedSegmentedSort in grains (fixed_segmented_sort.rs): segments of 16, 4
# pairs a thread over 4 lanes, and the network the host writes for them in
# place of sort_grains's one-line default.
compile contact_sort contact_sort.grains '^const LOG2_SEG = 5u;$' 'const LOG2_SEG = 4u;' \
    '^const LOG2_TILE = 5u;$' 'const LOG2_TILE = 2u;' '^const GRAIN = 1u;$' 'const GRAIN = 4u;' \
    '^fn sort_grains(q: u32, g: Grains) -> Grains .*' '' --append-network 16

# Every device shader with an entry point is composed above, alone or
# appended to another: a new one needs its line.
for f in "$device_src"/*.wgsl; do
    file=${f##*/}
    case " $covered " in *" $file "*) continue ;; esac
    if grep -q '@compute' "$f"; then
        echo "web: $f has entry points, but no emit or compile line of web/build.sh composes it" >&2
        exit 1
    fi
done
printf '{\n  %s,\n  "emulated": {\n    "subgroupSize": %s,\n    "shaders": {\n      %s\n    }\n  },\n  "compile_only": {\n    "native": {\n      %s\n    },\n    "emulated": {\n      %s\n    }\n  }\n}\n' \
    "$manifest" "$emulated_size" "$emulated" "$compile_native" "$compile_emulated" >"$gen/manifest.json"
count=$(find "$gen" -name '*.wgsl' | wc -l)
echo "web: $count WGSL file(s) in $gen/${missing:+ (no shader yet:$missing)}"
