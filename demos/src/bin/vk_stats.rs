//! Issue 33: what the Vulkan driver makes of a kernel, which wgpu does not
//! show. For each SPIR-V file, the probe creates the compute pipeline on
//! the adapter with `VK_KHR_pipeline_executable_properties` and prints the
//! driver's statistics for it (on NVIDIA: registers, shared memory, local
//! memory / spills, instructions), one JSON line per statistic.
//!
//! The device is created as wgpu's Vulkan back end creates it where the
//! driver has them: `robustBufferAccess`, `robustBufferAccess2` and
//! zero-initialised workgroup memory, so the code is the code wgpu's
//! pipelines get. The SPIR-V comes from `wavekit-codegen-probe emit DIR`
//! (naga's output with wgpu's options), optionally optimised by
//! `spirv-opt` or written by `glslc`:
//!
//! ```text
//! wavekit-codegen-probe emit DIR
//! wavekit-vk-stats --adapter NVIDIA DIR/scan.spv@scan_lookback DIR/onesweep.spv@onesweep
//! ```
//!
//! `--no-robustness` and `--no-zeroing` create the device without those
//! features, to show what each adds to the code. Without the extension
//! (lavapipe of Mesa 22) it says so and exits 2.

use std::ffi::{CStr, CString};
use std::process::ExitCode;

use ash::vk;
use clap::Parser;
use serde_json::json;

/// `wavekit-vk-stats`: the Vulkan driver's statistics of compute kernels.
#[derive(Parser, Debug)]
#[command(name = "wavekit-vk-stats")]
struct Args {
    /// The adapter whose name contains this (case-insensitive); default: the
    /// first with the extension, discrete GPUs first.
    #[arg(long)]
    adapter: Option<String>,
    /// Without `robustBufferAccess` and `robustBufferAccess2` (what the
    /// driver adds for out-of-bounds buffer accesses).
    #[arg(long)]
    no_robustness: bool,
    /// Without zero-initialised workgroup memory (what the driver adds to
    /// zero it).
    #[arg(long)]
    no_zeroing: bool,
    /// Also write the driver's internal representations of each kernel
    /// (where it offers any) to `DIR/FILE/ENTRY.EXECUTABLE.N.txt`.
    #[arg(long, value_name = "DIR")]
    ir: Option<std::path::PathBuf>,
    /// SPIR-V files, each `FILE.spv@ENTRY` (the entry point; default `main`).
    #[arg(required = true)]
    kernels: Vec<String>,
}

/// `SpvOpDecorate`, `SpvOpVariable`, and the decorations and storage classes
/// the probe reads.
const OP_DECORATE: u32 = 71;
const OP_VARIABLE: u32 = 59;
const DECORATION_BINDING: u32 = 33;
const DECORATION_SET: u32 = 34;
const STORAGE_UNIFORM: u32 = 2;
const STORAGE_BUFFER: u32 = 12;

/// The buffers a SPIR-V module binds: (set, binding, uniform?), sorted.
fn bindings(words: &[u32]) -> Result<Vec<(u32, u32, bool)>, String> {
    if words.first() != Some(&0x0723_0203) {
        return Err("not SPIR-V (no magic number)".into());
    }
    let (mut sets, mut numbers, mut classes) = (
        std::collections::HashMap::new(),
        std::collections::HashMap::new(),
        std::collections::HashMap::new(),
    );
    let mut at = 5;
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if count == 0 || at + count > words.len() {
            return Err(format!("a malformed instruction at word {at}"));
        }
        let operands = &words[at + 1..at + count];
        match (op, operands) {
            (OP_DECORATE, [id, DECORATION_SET, set, ..]) => {
                sets.insert(*id, *set);
            }
            (OP_DECORATE, [id, DECORATION_BINDING, number, ..]) => {
                numbers.insert(*id, *number);
            }
            (OP_VARIABLE, [_, id, class, ..]) => {
                classes.insert(*id, *class);
            }
            _ => {}
        }
        at += count;
    }
    let mut found: Vec<(u32, u32, bool)> = numbers
        .iter()
        .filter_map(|(id, number)| {
            let class = *classes.get(id)?;
            (class == STORAGE_BUFFER || class == STORAGE_UNIFORM).then(|| {
                (
                    *sets.get(id).unwrap_or(&0),
                    *number,
                    class == STORAGE_UNIFORM,
                )
            })
        })
        .collect();
    found.sort_unstable();
    Ok(found)
}

/// A device with the extension, and what the probe needs of it.
struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    stats: ash::khr::pipeline_executable_properties::Device,
    name: String,
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: everything made on the device was destroyed after use.
        unsafe {
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// Opens the adapter `filter` names (or the first with the extension) with
/// wgpu's robustness and workgroup-zeroing features where it has them.
fn open(args: &Args) -> Result<Gpu, String> {
    let filter = args.adapter.as_deref();
    // SAFETY: loads the system's Vulkan loader.
    let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
    // SAFETY: valid create info.
    let instance = unsafe {
        entry.create_instance(
            &vk::InstanceCreateInfo::default().application_info(&app),
            None,
        )
    }
    .map_err(|e| format!("vkCreateInstance: {e}"))?;
    let extension = ash::khr::pipeline_executable_properties::NAME;
    // SAFETY: the instance is live.
    let mut candidates: Vec<(
        vk::PhysicalDevice,
        String,
        Vec<vk::ExtensionProperties>,
        vk::PhysicalDeviceType,
    )> = unsafe { instance.enumerate_physical_devices() }
        .map_err(|e| format!("vkEnumeratePhysicalDevices: {e}"))?
        .into_iter()
        .map(|pd| {
            // SAFETY: `pd` belongs to the instance.
            let properties = unsafe { instance.get_physical_device_properties(pd) };
            let name = properties
                .device_name_as_c_str()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            // SAFETY: as above.
            let extensions =
                unsafe { instance.enumerate_device_extension_properties(pd) }.unwrap_or_default();
            (pd, name, extensions, properties.device_type)
        })
        .filter(|(_, name, _, _)| {
            filter.is_none_or(|f| name.to_lowercase().contains(&f.to_lowercase()))
        })
        .collect();
    let offers = |extensions: &[vk::ExtensionProperties], wanted: &CStr| {
        extensions
            .iter()
            .any(|e| e.extension_name_as_c_str() == Ok(wanted))
    };
    candidates.sort_by_key(|(_, _, extensions, ty)| {
        (
            !offers(extensions, extension),
            *ty != vk::PhysicalDeviceType::DISCRETE_GPU,
        )
    });
    let Some((pd, name, extensions, _)) = candidates.into_iter().next() else {
        // SAFETY: nothing else was made.
        unsafe { instance.destroy_instance(None) };
        return Err(format!("no Vulkan adapter matches {filter:?}"));
    };
    if !offers(&extensions, extension) {
        // SAFETY: as above.
        unsafe { instance.destroy_instance(None) };
        return Err(format!(
            "{name} does not offer VK_KHR_pipeline_executable_properties: its driver shows no statistics"
        ));
    }
    // SAFETY: `pd` belongs to the instance.
    let family = unsafe { instance.get_physical_device_queue_family_properties(pd) }
        .iter()
        .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
        .ok_or(format!("{name} has no compute queue"))? as u32;
    // What the adapter has of wgpu's features.
    let robustness2_name = ash::ext::robustness2::NAME;
    let has_robustness2 = offers(&extensions, robustness2_name);
    let mut supported13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut supported_robust2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
    let mut supported = vk::PhysicalDeviceFeatures2::default().push_next(&mut supported13);
    if has_robustness2 {
        supported = supported.push_next(&mut supported_robust2);
    }
    // SAFETY: the chain is valid for the device's API version.
    unsafe { instance.get_physical_device_features2(pd, &mut supported) };
    let off = |wanted: bool, feature: vk::Bool32| if wanted { feature } else { vk::FALSE };
    let robust = off(!args.no_robustness, supported.features.robust_buffer_access);
    let zeroing = off(
        !args.no_zeroing,
        supported13.shader_zero_initialize_workgroup_memory,
    );
    let robust2 = off(!args.no_robustness, supported_robust2.robust_buffer_access2);

    let mut extensions: Vec<*const std::ffi::c_char> = vec![extension.as_ptr()];
    if has_robustness2 && robust2 == vk::TRUE {
        extensions.push(robustness2_name.as_ptr());
    }
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family)
        .queue_priorities(&priorities)];
    let mut executable = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
        .pipeline_executable_info(true);
    let mut features13 = vk::PhysicalDeviceVulkan13Features::default()
        .shader_zero_initialize_workgroup_memory(zeroing == vk::TRUE)
        .subgroup_size_control(supported13.subgroup_size_control == vk::TRUE)
        .compute_full_subgroups(supported13.compute_full_subgroups == vk::TRUE);
    let mut robustness2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default()
        .robust_buffer_access2(robust2 == vk::TRUE);
    let features = vk::PhysicalDeviceFeatures::default().robust_buffer_access(robust == vk::TRUE);
    let mut info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&extensions)
        .enabled_features(&features)
        .push_next(&mut executable)
        .push_next(&mut features13);
    if has_robustness2 && robust2 == vk::TRUE {
        info = info.push_next(&mut robustness2);
    }
    // SAFETY: every extension and feature asked for is supported (checked).
    let device = unsafe { instance.create_device(pd, &info, None) }
        .map_err(|e| format!("vkCreateDevice on {name}: {e}"))?;
    let stats = ash::khr::pipeline_executable_properties::Device::new(&instance, &device);
    eprintln!(
        "{name}: robustBufferAccess {}, robustBufferAccess2 {}, zeroed workgroup memory {}",
        robust == vk::TRUE,
        robust2 == vk::TRUE,
        zeroing == vk::TRUE
    );
    Ok(Gpu {
        _entry: entry,
        instance,
        device,
        stats,
        name,
    })
}

/// The driver's statistics of entry `entry` of SPIR-V `words`, one JSON
/// value per executable statistic.
fn statistics(
    gpu: &Gpu,
    words: &[u32],
    entry: &str,
    ir: Option<&std::path::Path>,
) -> Result<Vec<serde_json::Value>, String> {
    let device = &gpu.device;
    let mut sets: Vec<Vec<vk::DescriptorSetLayoutBinding>> = Vec::new();
    for (set, binding, uniform) in bindings(words)? {
        let set = set as usize;
        if sets.len() <= set {
            sets.resize(set + 1, Vec::new());
        }
        sets[set].push(
            vk::DescriptorSetLayoutBinding::default()
                .binding(binding)
                .descriptor_type(if uniform {
                    vk::DescriptorType::UNIFORM_BUFFER
                } else {
                    vk::DescriptorType::STORAGE_BUFFER
                })
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE),
        );
    }
    // SAFETY (this block): every handle is made on `device` and destroyed
    // before it returns; the create infos outlive the calls.
    unsafe {
        let layouts: Vec<vk::DescriptorSetLayout> = sets
            .iter()
            .map(|b| {
                device.create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(b),
                    None,
                )
            })
            .collect::<Result<_, _>>()
            .map_err(|e| format!("vkCreateDescriptorSetLayout: {e}"))?;
        let pipeline_layout = device
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts),
                None,
            )
            .map_err(|e| format!("vkCreatePipelineLayout: {e}"))?;
        let module = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None)
            .map_err(|e| format!("vkCreateShaderModule: {e}"))?;
        let name = CString::new(entry).map_err(|_| format!("`{entry}`: a NUL in the name"))?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&name);
        let create = vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(pipeline_layout)
            .flags(
                vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
                    | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR,
            );
        let pipeline = device
            .create_compute_pipelines(vk::PipelineCache::null(), &[create], None)
            .map_err(|(_, e)| format!("vkCreateComputePipelines `{entry}`: {e}"))?[0];
        let result = (|| {
            let executables = gpu
                .stats
                .get_pipeline_executable_properties(
                    &vk::PipelineInfoKHR::default().pipeline(pipeline),
                )
                .map_err(|e| format!("vkGetPipelineExecutablePropertiesKHR: {e}"))?;
            let mut out = Vec::new();
            for (index, executable) in executables.iter().enumerate() {
                let info = vk::PipelineExecutableInfoKHR::default()
                    .pipeline(pipeline)
                    .executable_index(index as u32);
                let exe_name = c_text(&executable.name);
                if let Some(dir) = ir {
                    for (k, (name, text)) in representations(gpu, &info)?.into_iter().enumerate() {
                        let file = dir.join(format!("{entry}.{index}.{k}.txt"));
                        std::fs::write(&file, format!("// {name}\n{text}"))
                            .map_err(|e| format!("{}: {e}", file.display()))?;
                    }
                }
                for stat in gpu
                    .stats
                    .get_pipeline_executable_statistics(&info)
                    .map_err(|e| format!("vkGetPipelineExecutableStatisticsKHR: {e}"))?
                {
                    let value = match stat.format {
                        vk::PipelineExecutableStatisticFormatKHR::BOOL32 => {
                            json!(stat.value.b32 != 0)
                        }
                        vk::PipelineExecutableStatisticFormatKHR::INT64 => json!(stat.value.i64),
                        vk::PipelineExecutableStatisticFormatKHR::UINT64 => json!(stat.value.u64),
                        vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => json!(stat.value.f64),
                        _ => json!(null),
                    };
                    out.push(json!({
                        "executable": exe_name,
                        "subgroup_size": executable.subgroup_size,
                        "statistic": c_text(&stat.name),
                        "description": c_text(&stat.description),
                        "value": value,
                    }));
                }
            }
            Ok(out)
        })();
        device.destroy_pipeline(pipeline, None);
        device.destroy_shader_module(module, None);
        device.destroy_pipeline_layout(pipeline_layout, None);
        for layout in layouts {
            device.destroy_descriptor_set_layout(layout, None);
        }
        result
    }
}

/// The driver's internal representations of one executable: (name, text).
///
/// # Safety
///
/// `info` names an executable of a live pipeline created with
/// `CAPTURE_INTERNAL_REPRESENTATIONS_KHR`.
unsafe fn representations(
    gpu: &Gpu,
    info: &vk::PipelineExecutableInfoKHR<'_>,
) -> Result<Vec<(String, String)>, String> {
    let get = gpu
        .stats
        .fp()
        .get_pipeline_executable_internal_representations_khr;
    let device = gpu.device.handle();
    let mut count = 0u32;
    // SAFETY: the count query of the two-call idiom.
    unsafe { get(device, info, &mut count, std::ptr::null_mut()) }
        .result()
        .map_err(|e| format!("vkGetPipelineExecutableInternalRepresentationsKHR: {e}"))?;
    let mut found =
        vec![vk::PipelineExecutableInternalRepresentationKHR::default(); count as usize];
    // SAFETY: `found` holds `count` structures; with null data pointers
    // the driver writes each one's size.
    unsafe { get(device, info, &mut count, found.as_mut_ptr()) }
        .result()
        .map_err(|e| format!("vkGetPipelineExecutableInternalRepresentationsKHR: {e}"))?;
    let mut buffers: Vec<Vec<u8>> = found.iter().map(|r| vec![0u8; r.data_size]).collect();
    for (r, buffer) in found.iter_mut().zip(&mut buffers) {
        r.p_data = buffer.as_mut_ptr().cast();
    }
    // SAFETY: each data pointer has its size's bytes.
    unsafe { get(device, info, &mut count, found.as_mut_ptr()) }
        .result()
        .map_err(|e| format!("vkGetPipelineExecutableInternalRepresentationsKHR: {e}"))?;
    Ok(found
        .iter()
        .zip(&buffers)
        .map(|(r, data)| {
            let text = if r.is_text == vk::TRUE {
                String::from_utf8_lossy(data.split(|&b| b == 0).next().unwrap_or(&[])).into_owned()
            } else {
                format!("({} bytes of binary data)", data.len())
            };
            (c_text(&r.name), text)
        })
        .collect())
}

/// A fixed-size C string of Vulkan's as text.
fn c_text(chars: &[std::ffi::c_char]) -> String {
    // SAFETY: Vulkan's fixed-size strings are NUL-terminated within their
    // arrays.
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn run(args: &Args) -> Result<(), String> {
    let gpu = open(args)?;
    for kernel in &args.kernels {
        let (path, entry) = kernel.split_once('@').unwrap_or((kernel, "main"));
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        if bytes.len() % 4 != 0 {
            return Err(format!("{path}: not a whole number of SPIR-V words"));
        }
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // One folder per SPIR-V file: DIR/FILE/.
        let ir = args.ir.as_ref().map(|dir| {
            let stem = std::path::Path::new(path).file_stem().unwrap_or_default();
            dir.join(stem)
        });
        if let Some(dir) = &ir {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        for mut line in
            statistics(&gpu, &words, entry, ir.as_deref()).map_err(|e| format!("{path}: {e}"))?
        {
            line["probe"] = json!("vk-stats");
            line["device"] = json!(gpu.name);
            line["file"] = json!(path);
            line["entry"] = json!(entry);
            line["robustness"] = json!(!args.no_robustness);
            line["zeroing"] = json!(!args.no_zeroing);
            println!("{line}");
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wavekit-vk-stats: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_bindings_of_spirv() {
        // OpDecorate %7 DescriptorSet 0; OpDecorate %7 Binding 2;
        // OpVariable %5 %7 StorageBuffer; OpDecorate %8 Binding 0 (set 1);
        // OpVariable %6 %8 Uniform.
        let words = [
            0x0723_0203,
            0x0001_0600,
            0,
            9,
            0,
            (4 << 16) | OP_DECORATE,
            7,
            DECORATION_SET,
            0,
            (4 << 16) | OP_DECORATE,
            7,
            DECORATION_BINDING,
            2,
            (4 << 16) | OP_VARIABLE,
            5,
            7,
            STORAGE_BUFFER,
            (4 << 16) | OP_DECORATE,
            8,
            DECORATION_SET,
            1,
            (4 << 16) | OP_DECORATE,
            8,
            DECORATION_BINDING,
            0,
            (4 << 16) | OP_VARIABLE,
            6,
            8,
            STORAGE_UNIFORM,
        ];
        assert_eq!(bindings(&words).unwrap(), [(0, 2, false), (1, 0, true)]);
        assert!(bindings(&[1, 2, 3]).is_err());
        assert!(bindings(&[0x0723_0203, 0, 0, 0, 0, 99 << 16]).is_err());
    }
}
