fn main() {
    use wavekit::*;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let s: u32 = args[0].parse().unwrap();
    let low: Lowering = args[1].parse().unwrap();
    let t = Target::new(Backend::Vulkan, SubgroupSize::fixed(s).unwrap()).with_strategy(Strategy::uniform(low));
    let specs: Vec<&str> = args[2..].iter().map(|s| s.as_str()).collect();
    println!("{}", Library::new(t).expand_strs(&specs).unwrap().wgsl());
}
