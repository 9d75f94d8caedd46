#version 450 core
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

struct ThreadScan {
    uvec4 quads[8];
    uint tile_total;
};
struct Publication {
    uint state;
    uint value;
};
const uint BLOCK = 256u;
const bool INCLUSIVE = false;
const uint QUADS = 8u;
const uint TILE_QUADS = 2048u;
const uint MAX_SUBGROUPS = 64u;
const bool LOOK_BACK = true;
const uint STATE_AGGREGATE = 1073741824u;
const uint STATE_PREFIX = 2147483648u;
const uint STATE_MASK = 3221225472u;
const uint SUMS_PER_THREAD = 16u;

layout(std430, binding = 0) readonly buffer type_3_block_0Compute { uvec4 _group_0_binding_0_cs[]; };

layout(std430, binding = 1) buffer type_3_block_1Compute { uvec4 _group_0_binding_1_cs[]; };

layout(std430, binding = 2) buffer type_5_block_2Compute { uint _group_0_binding_2_cs[]; };

layout(std430, binding = 3) buffer type_5_block_3Compute { uint _group_0_binding_3_cs[]; };

shared uint shared_tile;

shared uint shared_prefix;

shared uint subgroup_totals[64];

uint wk_sg_lane = 0u;

uint wk_blk_subgroup = 0u;

uint wk_sg_size = 0u;

uint wk_blk_thread = 0u;

uint wk_blk_global_thread = 0u;


uint tile_count() {
    return (((uint(_group_0_binding_0_cs.length()) + TILE_QUADS) - 1u) / TILE_QUADS);
}

uint wk_sg_group_size() {
    return 32u;
}

uint wk0_() {
    uint _e0 = wk_sg_group_size();
    return _e0;
}

uint wk_sg_invocation_id() {
    uint _e1 = wk_sg_lane;
    return _e1;
}

uint wk1_() {
    uint _e0 = wk_sg_invocation_id();
    return _e0;
}

uint quad_index(uint tile, uint t_4, uint k_2) {
    uint _e3 = wk0_();
    uint _e12 = wk1_();
    return (((tile * TILE_QUADS) + ((((t_4 / _e3) * QUADS) + k_2) * _e3)) + _e12);
}

uint wk_sg_inclusive_add_u32_(uint value) {
    uint _e1 = subgroupInclusiveAdd(value);
    return _e1;
}

uint wk2_(uint value_1) {
    uint _e1 = wk_sg_inclusive_add_u32_(value_1);
    return _e1;
}

uint wk_sg_broadcast_u32_(uint value_2, uint lane) {
    uint _e2 = subgroupShuffle(value_2, lane);
    return _e2;
}

uint wk3_(uint value_3, uint lane_1) {
    uint _e2 = wk_sg_broadcast_u32_(value_3, lane_1);
    return _e2;
}

ThreadScan scan_tile(uint tile_1, uint t_5) {
    uvec4 quads[8] = uvec4[8](uvec4(0u), uvec4(0u), uvec4(0u), uvec4(0u), uvec4(0u), uvec4(0u), uvec4(0u), uvec4(0u));
    uint carry_1 = 0u;
    uint k_3 = 0u;
    uvec4 q = uvec4(0u);
    uint before = 0u;
    uint total = 0u;
    uint g = 0u;
    uint k_4 = 0u;
    uint _e2 = wk0_();
    uint _e3 = wk1_();
    uint len = uint(_group_0_binding_0_cs.length());
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            uint _e62 = k_3;
            k_3 = (_e62 + 1u);
        }
        loop_init = false;
        uint _e11 = k_3;
        if ((_e11 < QUADS)) {
        } else {
            break;
        }
        {
            uint _e14 = k_3;
            uint _e15 = quad_index(tile_1, t_5, _e14);
            q = uvec4(0u);
            if ((_e15 < len)) {
                uvec4 _e22 = _group_0_binding_0_cs[_e15];
                q = _e22;
            }
            uint _e25 = q.x;
            uint _e27 = q.x;
            uint _e29 = q.y;
            uint _e32 = q.x;
            uint _e34 = q.y;
            uint _e37 = q.z;
            uvec4 exclusive = uvec4(0u, _e25, (_e27 + _e29), ((_e32 + _e34) + _e37));
            uvec4 _e40 = q;
            uvec4 within = (INCLUSIVE ? (exclusive + _e40) : exclusive);
            uint _e46 = q.w;
            uint sum = (exclusive.w + _e46);
            uint _e48 = wk2_(sum);
            uint _e49 = k_3;
            uint _e51 = carry_1;
            quads[_e49] = (within + uvec4(((_e51 + _e48) - sum)));
            uint _e56 = carry_1;
            uint _e59 = wk3_(_e48, (_e2 - 1u));
            carry_1 = (_e56 + _e59);
        }
    }
    uint subgroup = (t_5 / _e2);
    if ((_e3 == (_e2 - 1u))) {
        uint _e70 = carry_1;
        subgroup_totals[subgroup] = _e70;
    }
    memoryBarrierShared();
    barrier();
    bool loop_init_1 = true;
    while(true) {
        if (!loop_init_1) {
            uint _e94 = g;
            g = (_e94 + 1u);
        }
        loop_init_1 = false;
        uint _e77 = g;
        if ((_e77 < (BLOCK / _e2))) {
        } else {
            break;
        }
        {
            uint _e82 = g;
            uint s_1 = subgroup_totals[_e82];
            uint _e85 = before;
            uint _e87 = g;
            before = (_e85 + ((_e87 < subgroup) ? s_1 : 0u));
            uint _e91 = total;
            total = (_e91 + s_1);
        }
    }
    bool loop_init_2 = true;
    while(true) {
        if (!loop_init_2) {
            uint _e108 = k_4;
            k_4 = (_e108 + 1u);
        }
        loop_init_2 = false;
        uint _e98 = k_4;
        if ((_e98 < QUADS)) {
        } else {
            break;
        }
        {
            uint _e101 = k_4;
            uvec4 _e103 = quads[_e101];
            uint _e104 = before;
            quads[_e101] = (_e103 + uvec4(_e104));
        }
    }
    uvec4 _e110[8] = quads;
    uint _e111 = total;
    return ThreadScan(_e110, _e111);
}

void store_tile(uint tile_2, uint t_6, ThreadScan s, uint base_1) {
    uint k_5 = 0u;
    uint len_1 = uint(_group_0_binding_1_cs.length());
    bool loop_init_3 = true;
    while(true) {
        if (!loop_init_3) {
            uint _e22 = k_5;
            k_5 = (_e22 + 1u);
        }
        loop_init_3 = false;
        uint _e8 = k_5;
        if ((_e8 < QUADS)) {
        } else {
            break;
        }
        {
            uint _e11 = k_5;
            uint _e12 = quad_index(tile_2, t_6, _e11);
            if ((_e12 < len_1)) {
                uint _e17 = k_5;
                _group_0_binding_1_cs[_e12] = (s.quads[_e17] + uvec4(base_1));
            }
        }
    }
    return;
}

void publish(uint tile_3, uint state, uint value_4) {
    atomicExchange(_group_0_binding_2_cs[(2u * tile_3)], (state | (value_4 & 65535u)));
    atomicExchange(_group_0_binding_2_cs[((2u * tile_3) + 1u)], (state | (value_4 >> 16u)));
    return;
}

Publication read_publication(uint p) {
    uint _e6 = atomicOr(_group_0_binding_2_cs[(2u * p)], 0u);
    uint _e14 = atomicOr(_group_0_binding_2_cs[((2u * p) + 1u)], 0u);
    uint state_1 = (_e6 & STATE_MASK);
    if ((state_1 != (_e14 & STATE_MASK))) {
        return Publication(0u, 0u);
    }
    return Publication(state_1, ((_e6 & 65535u) | ((_e14 & 65535u) << 16u)));
}

bool wk_sg_all_true(bool predicate) {
    bool _e1 = subgroupAll(predicate);
    return _e1;
}

bool wk4_(bool predicate_1) {
    bool _e1 = wk_sg_all_true(predicate_1);
    return _e1;
}

uint wk_sg_reduce_all_min_u32_(uint value_5) {
    uint _e1 = subgroupMin(value_5);
    return _e1;
}

uint wk5_(uint value_6) {
    uint _e1 = wk_sg_reduce_all_min_u32_(value_6);
    return _e1;
}

uint wk_sg_reduce_all_add_u32_(uint value_7) {
    uint _e1 = subgroupAdd(value_7);
    return _e1;
}

uint wk6_(uint value_8) {
    uint _e1 = wk_sg_reduce_all_add_u32_(value_8);
    return _e1;
}

uint look_back(uint tile_4) {
    uint prefix_1 = 0u;
    uint end = 0u;
    Publication seen = Publication(0u, 0u);
    uint _e1 = wk1_();
    uint _e2 = wk0_();
    end = tile_4;
    while(true) {
        uint _e8 = end;
        seen = Publication(((_e1 >= _e8) ? STATE_PREFIX : 0u), 0u);
        while(true) {
            uint _e15 = seen.state;
            if ((_e15 == 0u)) {
                uint _e18 = end;
                Publication _e22 = read_publication(((_e18 - 1u) - _e1));
                seen = _e22;
            }
            uint _e24 = seen.state;
            bool _e27 = wk4_((_e24 != 0u));
            if (_e27) {
                break;
            }
        }
        uint _e30 = seen.state;
        uint _e34 = wk5_(((_e30 == STATE_PREFIX) ? _e1 : 4294967295u));
        uint _e35 = prefix_1;
        uint _e38 = seen.value;
        uint _e41 = wk6_(((_e1 <= _e34) ? _e38 : 0u));
        prefix_1 = (_e35 + _e41);
        if ((_e34 != 4294967295u)) {
            break;
        }
        uint _e45 = end;
        end = (_e45 - _e2);
    }
    uint _e47 = prefix_1;
    return _e47;
}

bool wk_sg_any_true(bool predicate_2) {
    bool _e1 = subgroupAny(predicate_2);
    return _e1;
}

bool wk7_(bool predicate_3) {
    bool _e1 = wk_sg_any_true(predicate_3);
    return _e1;
}

uint wk_sg_shuffle_up_u32_(uint value_9, uint delta) {
    uint _e3 = wk_sg_lane;
    uint _e6 = wk_sg_lane;
    uint _e8 = wk_sg_lane;
    uint source = ((_e8 < delta) ? _e6 : (_e3 - delta));
    uint _e11 = subgroupShuffle(value_9, source);
    return _e11;
}

void wk_sg_init(uint subgroup_invocation_id, uint subgroup_size) {
    wk_sg_lane = subgroup_invocation_id;
    wk_sg_size = subgroup_size;
    return;
}

void wk_blk_init(uint local_invocation_index, uint subgroup_id, uvec3 workgroup_id, uvec3 num_workgroups, uint threads_per_block) {
    wk_blk_thread = local_invocation_index;
    wk_blk_subgroup = subgroup_id;
    uint workgroup_linear = (workgroup_id.x + (num_workgroups.x * (workgroup_id.y + (num_workgroups.y * workgroup_id.z))));
    wk_blk_global_thread = ((workgroup_linear * threads_per_block) + local_invocation_index);
    return;
}

void main() {
    if (gl_LocalInvocationID == uvec3(0u)) {
        shared_tile = 0u;
        shared_prefix = 0u;
        subgroup_totals = uint[64](0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
    }
    memoryBarrierShared();
    barrier();
    uint t = gl_LocalInvocationIndex;
    uint wk_subgroupinvocationid = gl_SubgroupInvocationID;
    uint wk_subgroupsize = gl_SubgroupSize;
    uint wk_subgroupid = gl_SubgroupID;
    uvec3 wk_workgroupid = gl_WorkGroupID;
    uvec3 wk_numworkgroups = gl_NumWorkGroups;
    uint prefix = 0u;
    wk_sg_init(wk_subgroupinvocationid, wk_subgroupsize);
    wk_blk_init(t, wk_subgroupid, wk_workgroupid, wk_numworkgroups, 256u);
    if (false) {
        return;
    }
    if ((t == 0u)) {
        uint _e8 = atomicAdd(_group_0_binding_3_cs[0], 1u);
        shared_tile = _e8;
    }
    memoryBarrierShared();
    barrier();
    uint _e10 = shared_tile;
    memoryBarrierShared();
    barrier();
    uint _e11 = tile_count();
    if ((_e10 >= _e11)) {
        return;
    }
    ThreadScan _e13 = scan_tile(_e10, t);
    bool _e16 = wk7_((t == 0u));
    if (_e16) {
        if ((_e10 != 0u)) {
            if ((t == 0u)) {
                publish(_e10, STATE_AGGREGATE, _e13.tile_total);
            }
            uint _e25 = look_back(_e10);
            prefix = _e25;
        }
        if ((t == 0u)) {
            uint _e29 = prefix;
            publish(_e10, STATE_PREFIX, (_e29 + _e13.tile_total));
            uint _e33 = prefix;
            shared_prefix = _e33;
        }
    }
    memoryBarrierShared();
    barrier();
    uint _e35 = shared_prefix;
    memoryBarrierShared();
    barrier();
    store_tile(_e10, t, _e13, _e35);
    return;
}

