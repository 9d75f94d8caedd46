# Sourced (from the repository root) by the device machine's scripts
# (bench/focus-run.sh, bench/look-back-run.sh, bench/ab-demos.sh): unpacks
# the carried LLVM libraries (.llvm-debs, into /opt/wk) and the Vulkan
# loader and GL libraries (.gl), points the loader at NVIDIA's driver, and
# sets WK, the environment wavekit's binaries run in (LLVM's libraries and
# libdevice only for them).
mkdir -p /opt/wk && for f in .llvm-debs/*.deb; do dpkg -x "$f" /opt/wk; done
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -f $ICD ]] && export VK_DRIVER_FILES=$ICD
export XDG_RUNTIME_DIR=/tmp/wavekit-runtime
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
WK=(env "LD_LIBRARY_PATH=/opt/wk/usr/lib/x86_64-linux-gnu" "WAVEKIT_LIBDEVICE=$PWD/.llvm-debs/libdevice.10.bc")
