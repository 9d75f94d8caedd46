// Written by wavekit::device::shaders::grain_network(4, 4) (segments of 16, grains of
// 4) for web/build.sh; tests/device_fixed_segmented_sort.rs checks it
// (WAVEKIT_BLESS_WEB=1 rewrites it).
fn sort_grains(q: u32, g: Grains) -> Grains {
    var k0 = g.keys[0];
    var v0 = g.values[0];
    var k1 = g.keys[1];
    var v1 = g.values[1];
    var k2 = g.keys[2];
    var v2 = g.values[2];
    var k3 = g.keys[3];
    var v3 = g.values[3];
    {
        let swap = less(k1, v1, k0, v0) == (true);
        let lk = k0;
        let lv = v0;
        k0 = select(k0, k1, swap);
        v0 = select(v0, v1, swap);
        k1 = select(k1, lk, swap);
        v1 = select(v1, lv, swap);
    }
    {
        let swap = less(k3, v3, k2, v2) == (false);
        let lk = k2;
        let lv = v2;
        k2 = select(k2, k3, swap);
        v2 = select(v2, v3, swap);
        k3 = select(k3, lk, swap);
        v3 = select(v3, lv, swap);
    }
    {
        let swap = less(k2, v2, k0, v0) == ((q & 1u) == 0u);
        let lk = k0;
        let lv = v0;
        k0 = select(k0, k2, swap);
        v0 = select(v0, v2, swap);
        k2 = select(k2, lk, swap);
        v2 = select(v2, lv, swap);
    }
    {
        let swap = less(k3, v3, k1, v1) == ((q & 1u) == 0u);
        let lk = k1;
        let lv = v1;
        k1 = select(k1, k3, swap);
        v1 = select(v1, v3, swap);
        k3 = select(k3, lk, swap);
        v3 = select(v3, lv, swap);
    }
    {
        let swap = less(k1, v1, k0, v0) == ((q & 1u) == 0u);
        let lk = k0;
        let lv = v0;
        k0 = select(k0, k1, swap);
        v0 = select(v0, v1, swap);
        k1 = select(k1, lk, swap);
        v1 = select(v1, lv, swap);
    }
    {
        let swap = less(k3, v3, k2, v2) == ((q & 1u) == 0u);
        let lk = k2;
        let lv = v2;
        k2 = select(k2, k3, swap);
        v2 = select(v2, v3, swap);
        k3 = select(k3, lk, swap);
        v3 = select(v3, lv, swap);
    }
    {
        let lower = (q & 1u) == 0u;
        let up = (q & 2u) == 0u;
        {
            let ok = sg::shuffle_xor<u32>(k0, 1u);
            let ov = sg::shuffle_xor<u32>(v0, 1u);
            let take = less(ok, ov, k0, v0) == (lower == up);
            k0 = select(k0, ok, take);
            v0 = select(v0, ov, take);
        }
        {
            let ok = sg::shuffle_xor<u32>(k1, 1u);
            let ov = sg::shuffle_xor<u32>(v1, 1u);
            let take = less(ok, ov, k1, v1) == (lower == up);
            k1 = select(k1, ok, take);
            v1 = select(v1, ov, take);
        }
        {
            let ok = sg::shuffle_xor<u32>(k2, 1u);
            let ov = sg::shuffle_xor<u32>(v2, 1u);
            let take = less(ok, ov, k2, v2) == (lower == up);
            k2 = select(k2, ok, take);
            v2 = select(v2, ov, take);
        }
        {
            let ok = sg::shuffle_xor<u32>(k3, 1u);
            let ov = sg::shuffle_xor<u32>(v3, 1u);
            let take = less(ok, ov, k3, v3) == (lower == up);
            k3 = select(k3, ok, take);
            v3 = select(v3, ov, take);
        }
    }
    {
        let swap = less(k2, v2, k0, v0) == ((q & 2u) == 0u);
        let lk = k0;
        let lv = v0;
        k0 = select(k0, k2, swap);
        v0 = select(v0, v2, swap);
        k2 = select(k2, lk, swap);
        v2 = select(v2, lv, swap);
    }
    {
        let swap = less(k3, v3, k1, v1) == ((q & 2u) == 0u);
        let lk = k1;
        let lv = v1;
        k1 = select(k1, k3, swap);
        v1 = select(v1, v3, swap);
        k3 = select(k3, lk, swap);
        v3 = select(v3, lv, swap);
    }
    {
        let swap = less(k1, v1, k0, v0) == ((q & 2u) == 0u);
        let lk = k0;
        let lv = v0;
        k0 = select(k0, k1, swap);
        v0 = select(v0, v1, swap);
        k1 = select(k1, lk, swap);
        v1 = select(v1, lv, swap);
    }
    {
        let swap = less(k3, v3, k2, v2) == ((q & 2u) == 0u);
        let lk = k2;
        let lv = v2;
        k2 = select(k2, k3, swap);
        v2 = select(v2, v3, swap);
        k3 = select(k3, lk, swap);
        v3 = select(v3, lv, swap);
    }
    {
        let lower = (q & 2u) == 0u;
        let up = (q & 4u) == 0u;
        {
            let ok = sg::shuffle_xor<u32>(k0, 2u);
            let ov = sg::shuffle_xor<u32>(v0, 2u);
            let take = less(ok, ov, k0, v0) == (lower == up);
            k0 = select(k0, ok, take);
            v0 = select(v0, ov, take);
        }
        {
            let ok = sg::shuffle_xor<u32>(k1, 2u);
            let ov = sg::shuffle_xor<u32>(v1, 2u);
            let take = less(ok, ov, k1, v1) == (lower == up);
            k1 = select(k1, ok, take);
            v1 = select(v1, ov, take);
        }
        {
            let ok = sg::shuffle_xor<u32>(k2, 2u);
            let ov = sg::shuffle_xor<u32>(v2, 2u);
            let take = less(ok, ov, k2, v2) == (lower == up);
            k2 = select(k2, ok, take);
            v2 = select(v2, ov, take);
        }
        {
            let ok = sg::shuffle_xor<u32>(k3, 2u);
            let ov = sg::shuffle_xor<u32>(v3, 2u);
            let take = less(ok, ov, k3, v3) == (lower == up);
            k3 = select(k3, ok, take);
            v3 = select(v3, ov, take);
        }
    }
    {
        let lower = (q & 1u) == 0u;
        let up = (q & 4u) == 0u;
        {
            let ok = sg::shuffle_xor<u32>(k0, 1u);
            let ov = sg::shuffle_xor<u32>(v0, 1u);
            let take = less(ok, ov, k0, v0) == (lower == up);
            k0 = select(k0, ok, take);
            v0 = select(v0, ov, take);
        }
        {
            let ok = sg::shuffle_xor<u32>(k1, 1u);
            let ov = sg::shuffle_xor<u32>(v1, 1u);
            let take = less(ok, ov, k1, v1) == (lower == up);
            k1 = select(k1, ok, take);
            v1 = select(v1, ov, take);
        }
        {
            let ok = sg::shuffle_xor<u32>(k2, 1u);
            let ov = sg::shuffle_xor<u32>(v2, 1u);
            let take = less(ok, ov, k2, v2) == (lower == up);
            k2 = select(k2, ok, take);
            v2 = select(v2, ov, take);
        }
        {
            let ok = sg::shuffle_xor<u32>(k3, 1u);
            let ov = sg::shuffle_xor<u32>(v3, 1u);
            let take = less(ok, ov, k3, v3) == (lower == up);
            k3 = select(k3, ok, take);
            v3 = select(v3, ov, take);
        }
    }
    {
        let swap = less(k2, v2, k0, v0) == ((q & 4u) == 0u);
        let lk = k0;
        let lv = v0;
        k0 = select(k0, k2, swap);
        v0 = select(v0, v2, swap);
        k2 = select(k2, lk, swap);
        v2 = select(v2, lv, swap);
    }
    {
        let swap = less(k3, v3, k1, v1) == ((q & 4u) == 0u);
        let lk = k1;
        let lv = v1;
        k1 = select(k1, k3, swap);
        v1 = select(v1, v3, swap);
        k3 = select(k3, lk, swap);
        v3 = select(v3, lv, swap);
    }
    {
        let swap = less(k1, v1, k0, v0) == ((q & 4u) == 0u);
        let lk = k0;
        let lv = v0;
        k0 = select(k0, k1, swap);
        v0 = select(v0, v1, swap);
        k1 = select(k1, lk, swap);
        v1 = select(v1, lv, swap);
    }
    {
        let swap = less(k3, v3, k2, v2) == ((q & 4u) == 0u);
        let lk = k2;
        let lv = v2;
        k2 = select(k2, k3, swap);
        v2 = select(v2, v3, swap);
        k3 = select(k3, lk, swap);
        v3 = select(v3, lv, swap);
    }
    var sorted: Grains;
    sorted.keys[0] = k0;
    sorted.values[0] = v0;
    sorted.keys[1] = k1;
    sorted.values[1] = v1;
    sorted.keys[2] = k2;
    sorted.values[2] = v2;
    sorted.keys[3] = k3;
    sorted.values[3] = v3;
    return sorted;
}
