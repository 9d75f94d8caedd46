/* A stand-in `libamdhip64.so` for tests/device_hip.rs: no AMD GPU exists
 * here, so wavekit::device's HIP path runs against this. "Device" memory is
 * host memory. Kernels do not run: each launch is logged (kernel, grid,
 * block) and its first buffer pair checked to lie in a live allocation.
 * Every loaded code object is written to $STUB_DUMP/N.hsaco so the test can
 * check it with LLVM's tools. Streams are counted, and a launch or memset
 * on a stream that is not live is an error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ALLOCS 4096
#define MAX_STREAMS 64
struct alloc { uintptr_t start; size_t bytes; };
static struct alloc allocs[MAX_ALLOCS];
static void* streams[MAX_STREAMS];
static int device = -1, images = 0, launches = 0, bad_args = 0, memsets = 0;
static float now_ms = 0;
static char last_kernel[256];

int stub_launches(void) { return launches; }
int stub_bad_args(void) { return bad_args; }
int stub_memsets(void) { return memsets; }
int stub_images(void) { return images; }
const char* stub_last_kernel(void) { return last_kernel; }

static int live_stream(void* s) {
  if (!s) return 1;
  for (int i = 0; i < MAX_STREAMS; i++) if (streams[i] == s) return 1;
  return 0;
}
/* Whether [p, p + n) lies in a live allocation. */
static int in_alloc(uintptr_t p, size_t n) {
  for (int i = 0; i < MAX_ALLOCS; i++)
    if (allocs[i].bytes && p >= allocs[i].start && p + n <= allocs[i].start + allocs[i].bytes)
      return 1;
  return 0;
}

int hipInit(unsigned flags) { return flags == 0 ? 0 : 1; }
int hipGetDeviceCount(int* n) { *n = 1; return 0; }
int hipSetDevice(int d) { if (d != 0) return 101; device = d; return 0; }
int hipDeviceGetAttribute(int* v, int attr, int d) { *v = attr; return d == 0 ? 0 : 101; }
int hipDeviceGetName(char* name, int len, int d) {
  snprintf(name, len, "Stub AMD GPU %d", d); return 0; }
int hipRuntimeGetVersion(int* v) { *v = 60443483; return 0; }

struct module { char name[256]; };
int hipModuleLoadData(void** module, const void* image) {
  const unsigned char* elf = image;
  if (device < 0 || memcmp(elf, "\x7f" "ELF", 4) != 0 || elf[4] != 2) return 200;
  /* ELF64: the section header table ends the file. */
  uint64_t shoff; uint16_t shentsize, shnum;
  memcpy(&shoff, elf + 0x28, 8); memcpy(&shentsize, elf + 0x3a, 2); memcpy(&shnum, elf + 0x3c, 2);
  const char* dir = getenv("STUB_DUMP");
  if (dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%d.hsaco", dir, images);
    FILE* f = fopen(path, "wb");
    if (!f) return 1;
    fwrite(elf, 1, shoff + (uint64_t)shentsize * shnum, f);
    fclose(f);
  }
  images++;
  *module = calloc(1, sizeof(struct module));
  return 0; }
int hipModuleGetFunction(void** f, void* module, const char* name) {
  if (!module) return 500;
  snprintf(((struct module*)module)->name, 256, "%s", name);
  *f = module; return 0; }
int hipModuleUnload(void* module) { if (!module) return 400; free(module); return 0; }
int hipModuleLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz,
    unsigned bx, unsigned by, unsigned bz, unsigned shared, void* stream,
    void** params, void** extra) {
  if (!f || extra || !params || !live_stream(stream)) return 1;
  if (!gx || !gy || !gz || !bx || !by || !bz || bx * by * bz > 1024) return 9;
  /* Every kernel takes at least one buffer: its address, then its length. */
  uintptr_t address = (uintptr_t)*(uint64_t*)params[0];
  uint32_t len = *(uint32_t*)params[1];
  if (!in_alloc(address, len)) bad_args++;
  snprintf(last_kernel, sizeof last_kernel, "%s", ((struct module*)f)->name);
  launches++; now_ms += 0.5f;
  return 0; }
int hipMalloc(void** p, size_t n) {
  *p = n ? calloc(1, n) : 0;
  for (int i = 0; n && i < MAX_ALLOCS; i++)
    if (!allocs[i].bytes) { allocs[i].start = (uintptr_t)*p; allocs[i].bytes = n; break; }
  return 0; }
int hipFree(void* p) {
  for (int i = 0; p && i < MAX_ALLOCS; i++)
    if (allocs[i].start == (uintptr_t)p) allocs[i].bytes = 0;
  free(p); return 0; }
int hipMemcpyHtoD(void* dst, void* src, size_t n) { memcpy(dst, src, n); return 0; }
int hipMemcpyDtoH(void* dst, void* src, size_t n) { memcpy(dst, src, n); return 0; }
int hipMemcpyDtoDAsync(void* dst, void* src, size_t n, void* stream) {
  if (!live_stream(stream)) return 1; memcpy(dst, src, n); return 0; }
int hipMemsetAsync(void* dst, int value, size_t n, void* stream) {
  if (!live_stream(stream) || !in_alloc((uintptr_t)dst, n)) return 1;
  memset(dst, value, n); memsets++; return 0; }
int hipDeviceSynchronize(void) { return 0; }
int hipStreamQuery(void* s) { (void)s; return 0; }
const char* hipGetErrorString(int e) { return e ? "stub error" : "no error"; }
const char* hipGetErrorName(int e) { return e ? "hipErrorStub" : "hipSuccess"; }
int hipEventCreate(void** e) { *e = malloc(sizeof(float)); return 0; }
int hipEventRecord(void* e, void* stream) { (void)stream; *(float*)e = now_ms; return 0; }
int hipEventSynchronize(void* e) { return e ? 0 : 400; }
int hipEventElapsedTime(float* ms, void* a, void* b) { *ms = *(float*)b - *(float*)a; return 0; }
int hipEventDestroy(void* e) { free(e); return 0; }
int hipStreamCreate(void** s) {
  for (int i = 0; i < MAX_STREAMS; i++)
    if (!streams[i]) { streams[i] = malloc(1); *s = streams[i]; return 0; }
  return 2; }
int hipStreamDestroy(void* s) {
  for (int i = 0; i < MAX_STREAMS; i++)
    if (streams[i] == s) { free(s); streams[i] = 0; return 0; }
  return 400; }
