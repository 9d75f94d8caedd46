//! Tune profiles on lavapipe: `tune` times both lowerings and picks one per
//! op, the stored profile is what `Gpu::open` (through
//! `Target::from_adapter`) then uses, and a profile it cannot read is a
//! clear error. One test: it sets `WAVEKIT_PROFILE_DIR` for the process.

use wavekit::runner::{AdapterChoice, Gpu};
use wavekit::target::profile::Profile;
use wavekit::tune::{TuneOptions, tune};
use wavekit::{Dtype, Library, Lowering};

fn lavapipe() -> Result<Gpu, wavekit::Error> {
    Gpu::open(&AdapterChoice::named("llvmpipe"))
}

fn lowering_of(gpu: &Gpu, op: &str) -> Option<Lowering> {
    gpu.target().strategy.lowering(op, &Lowering::ALL)
}

#[test]
fn a_stored_profile_chooses_the_lowering() {
    let dir = std::env::temp_dir().join(format!("wavekit-tune-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // SAFETY: the only test of this binary; nothing else reads the
    // environment concurrently.
    unsafe { std::env::set_var("WAVEKIT_PROFILE_DIR", &dir) };

    let gpu = lavapipe().expect("lavapipe is installed by scripts/setup");
    assert_eq!(lowering_of(&gpu, "reduce_add"), Some(Lowering::Builtin));

    // Tuning two ops measures both lowerings for each dtype and chooses one.
    let options = TuneOptions {
        ops: vec!["reduce_add".into(), "inclusive_add".into()],
        dtypes: vec![Dtype::U32, Dtype::F32],
        trips: 2,
        workgroups: 2,
        warmup: 1,
        runs: 2,
    };
    let mut profile = tune(&gpu, &options).expect("tune runs on lavapipe");
    assert_eq!(profile.measurements.len(), 2 * 2 * 2);
    assert!(profile.measurements.iter().all(|m| m.ns_per_op > 0.0));
    assert_eq!(profile.ops.len(), 2);
    let unknown = TuneOptions {
        ops: vec!["shuffle".into()],
        ..options.clone()
    };
    let error = tune(&gpu, &unknown).unwrap_err().to_string();
    assert!(
        error.contains("not a subgroup op with both lowerings"),
        "{error}"
    );

    // Whatever was measured, store shuffle for reduce_add: the next device
    // opened on this adapter expands it with shuffles, its tiled form too.
    profile.ops.insert("reduce_add".into(), Lowering::Shuffle);
    let path = profile.write(&dir).expect("profile written");
    let read = Profile::read(&path).expect("profile reads");
    // JSON keeps the choices exactly; the timings to within rounding.
    assert_eq!(
        (&read.adapter, &read.driver, &read.ops),
        (&profile.adapter, &profile.driver, &profile.ops)
    );
    assert_eq!(read.measurements.len(), profile.measurements.len());
    for (r, p) in read.measurements.iter().zip(&profile.measurements) {
        assert!(
            (r.ns_per_op - p.ns_per_op).abs() <= 1e-9 * p.ns_per_op,
            "{r:?} {p:?}"
        );
    }
    let tuned = lavapipe().expect("lavapipe with a profile");
    assert_eq!(lowering_of(&tuned, "reduce_add"), Some(Lowering::Shuffle));
    assert_eq!(
        lowering_of(&tuned, "reduce_add_tiled"),
        Some(Lowering::Shuffle)
    );
    let wgsl = Library::new(tuned.target().clone())
        .expand_strs(&["reduce_add<u32>"])
        .expect("expands")
        .wgsl()
        .to_string();
    assert!(!wgsl.contains("subgroupAdd"), "{wgsl}");
    assert!(wgsl.contains("subgroupShuffle"), "{wgsl}");

    // A profile of another version is refused, naming the file.
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("\"version\": 1", "\"version\": 2")).unwrap();
    let error = lavapipe()
        .err()
        .expect("a version-2 profile is refused")
        .to_string();
    assert!(
        error.contains("profile version 2") && error.contains(&*path.to_string_lossy()),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
