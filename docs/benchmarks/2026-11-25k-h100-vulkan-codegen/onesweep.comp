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
layout(local_size_x = 512, local_size_y = 1, local_size_z = 1) in;

const uint PASS = 0u;
const uint BEGIN_BIT = 0u;
const uint END_BIT = 32u;
const uint SHIFT = 0u;
const uint DIGIT_BITS = 8u;
const uint KEY_ORDER = 0u;
const bool FIRST_PASS = true;
const bool LAST_PASS = false;
const bool PAIRS = false;
const uint BLOCK = 512u;
const uint SUBGROUPS = 16u;
const uint ITEMS = 6u;
const bool SPIN_WITH_RMW = false;
const bool NARROW = true;
const uint TILE = 3072u;
const uint RADIX = 256u;
const uint PAIRS_OF_DIGITS = 128u;
const uint COUNT_MASK = 1073741823u;
const uint ODD = 0u;
const uint AGGREGATE = 1073741824u;
const uint PREFIX = 2147483648u;

layout(std430, binding = 0) readonly buffer type_2_block_0Compute { uint _group_0_binding_0_cs[]; };

layout(std430, binding = 1) buffer type_2_block_1Compute { uint _group_0_binding_1_cs[]; };

layout(std430, binding = 2) readonly buffer type_2_block_2Compute { uint _group_0_binding_2_cs[]; };

layout(std430, binding = 3) buffer type_2_block_3Compute { uint _group_0_binding_3_cs[]; };

layout(std430, binding = 4) buffer type_4_block_4Compute { uint _group_0_binding_4_cs[]; };

layout(std430, binding = 5) buffer type_4_block_5Compute { uint _group_0_binding_5_cs[]; };

layout(std430, binding = 6) buffer type_4_block_6Compute { uint _group_0_binding_6_cs[]; };

shared uint tile_slot;

shared uint counters[2048];

shared uint tile_count[256];

shared uint tile_first[256];

shared uint digit_base[256];

shared uint staged[3072];

uint wk_blk_partials_u32_512_parity = 0u;

uint wk_sg_lane = 0u;

shared uint wk_blk_partials_u32_512_[32];

uint wk_blk_subgroup = 0u;

uint wk_sg_size = 0u;

uint wk_blk_thread = 0u;

uint wk_blk_global_thread = 0u;


uint encode_key(uint k_6) {
    if (false) {
        return (k_6 ^ 2147483648u);
    }
    if (false) {
        return (k_6 ^ (((k_6 >> 31u) == 1u) ? 4294967295u : 2147483648u));
    }
    return k_6;
}

uint load_key(uint i) {
    uint k_9 = _group_0_binding_0_cs[i];
    if (FIRST_PASS) {
        uint _e5 = encode_key(k_9);
        return _e5;
    }
    return k_9;
}

uint decode_key(uint b) {
    if (false) {
        return (b ^ 2147483648u);
    }
    if (false) {
        return (b ^ (((b >> 31u) == 1u) ? 2147483648u : 4294967295u));
    }
    return b;
}

uint store_key(uint key) {
    if (LAST_PASS) {
        uint _e2 = decode_key(key);
        return _e2;
    }
    return key;
}

uint digit_of(uint key_1) {
    return bitfieldExtract(key_1, int(min(SHIFT, 32u)), int(min(DIGIT_BITS, 32u - min(SHIFT, 32u))));
}

uint pass_digit(uint key_2, uint p_1) {
    uint shift = (BEGIN_BIT + (8u * p_1));
    if ((shift >= END_BIT)) {
        return 0u;
    }
    return bitfieldExtract(key_2, int(min(shift, 32u)), int(min(min(8u, (END_BIT - shift)), 32u - min(shift, 32u))));
}

uvec2 keys_of_part(uint w, uint parts) {
    uint n = uint(_group_0_binding_0_cs.length());
    uint tiles = (((n + TILE) - 1u) / TILE);
    uint per = (((tiles + parts) - 1u) / parts);
    uint begin = (min((w * per), tiles) * TILE);
    uint end = min((min(((w + 1u) * per), tiles) * TILE), n);
    return uvec2(begin, max(begin, end));
}

uint wk_sg_inclusive_add_u32_(uint value) {
    uint _e1 = subgroupInclusiveAdd(value);
    return _e1;
}

uint wk_sg_shuffle_up_u32_(uint value_1, uint delta) {
    uint _e3 = wk_sg_lane;
    uint _e6 = wk_sg_lane;
    uint _e8 = wk_sg_lane;
    uint source = ((_e8 < delta) ? _e6 : (_e3 - delta));
    uint _e11 = subgroupShuffle(value_1, source);
    return _e11;
}

uint wk_blk_exclusive_add_u32_512_(uint value_2) {
    uint prefix_1 = 0u;
    uint k_7 = 0u;
    uint _e1 = wk_sg_inclusive_add_u32_(value_2);
    uint _e3 = wk_blk_partials_u32_512_parity;
    uint base_1 = (_e3 * 16u);
    uint _e9 = wk_blk_partials_u32_512_parity;
    wk_blk_partials_u32_512_parity = (1u - _e9);
    uint _e12 = wk_sg_lane;
    if ((_e12 == 31u)) {
        uint _e17 = wk_blk_subgroup;
        wk_blk_partials_u32_512_[(base_1 + _e17)] = _e1;
    }
    memoryBarrierShared();
    barrier();
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            uint _e35 = k_7;
            k_7 = (_e35 + 1u);
        }
        loop_init = false;
        uint _e24 = k_7;
        uint _e26 = wk_blk_subgroup;
        if ((_e24 < _e26)) {
        } else {
            break;
        }
        {
            uint _e28 = prefix_1;
            uint _e30 = k_7;
            uint _e33 = wk_blk_partials_u32_512_[(base_1 + _e30)];
            prefix_1 = (_e28 + _e33);
        }
    }
    uint _e39 = wk_sg_shuffle_up_u32_(_e1, 1u);
    uint _e40 = prefix_1;
    uint _e42 = prefix_1;
    uint _e44 = wk_sg_lane;
    return ((_e44 == 0u) ? _e42 : (_e40 + _e39));
}

uint wk_sg_lanemask_lt(uint lane_id) {
    return ((1u << lane_id) - 1u);
}

uint wk0_(uint lane_id_1) {
    uint _e1 = wk_sg_lanemask_lt(lane_id_1);
    return _e1;
}

uint below(uvec4 mask, uint lane) {
    uint word_2 = (lane / 32u);
    uvec4 whole = uvec4(bitCount(mask));
    uint earlier_1 = ((((word_2 > 0u) ? whole.x : 0u) + ((word_2 > 1u) ? whole.y : 0u)) + ((word_2 > 2u) ? whole.z : 0u));
    uint _e25 = wk0_((lane % 32u));
    return (earlier_1 + uint(bitCount((mask[word_2] & _e25))));
}

uvec4 wk_sg_ballot(bool predicate) {
    uvec4 _e1 = subgroupBallot(predicate);
    return _e1;
}

uvec4 wk1_(bool predicate_1) {
    uvec4 _e1 = wk_sg_ballot(predicate_1);
    return _e1;
}

uint same_bit(uint digit, uint b_1) {
    bool one = (bitfieldExtract(digit, int(min(b_1, 32u)), int(min(1u, 32u - min(b_1, 32u)))) == 1u);
    uvec4 _e6 = wk1_(one);
    uint lanes = _e6.x;
    return (one ? lanes : ~(lanes));
}

uvec4 same_bit_wide(uint digit_1, uint b_2) {
    bool one_1 = (bitfieldExtract(digit_1, int(min(b_2, 32u)), int(min(1u, 32u - min(b_2, 32u)))) == 1u);
    uvec4 _e6 = wk1_(one_1);
    return mix(~(_e6), _e6, bvec4(one_1));
}

uint lowest(uvec4 mask_1) {
    uvec4 bits = uvec4(findLSB(mask_1));
    return ((mask_1.x != 0u) ? bits.x : ((mask_1.y != 0u) ? (32u + bits.y) : ((mask_1.z != 0u) ? (64u + bits.z) : (96u + bits.w))));
}

uint counter_half(uint word, uint digit_2) {
    uint _e5 = (16u * (digit_2 & 1u));
    return bitfieldExtract(word, int(min(_e5, 32u)), int(min(16u, 32u - min(_e5, 32u))));
}

uint look_back(uint tile, uint d_1) {
    uint prefix_2 = 0u;
    uint k_8 = 0u;
    uint word_1 = 0u;
    k_8 = (tile - 1u);
    while(true) {
        word_1 = 0u;
        if (SPIN_WITH_RMW) {
            uint _e11 = k_8;
            uint _e17 = atomicOr(_group_0_binding_5_cs[((_e11 * RADIX) + d_1)], 0u);
            word_1 = _e17;
        } else {
            uint _e19 = k_8;
            uint _e24 = atomicOr(_group_0_binding_5_cs[((_e19 * RADIX) + d_1)], 0u);
            word_1 = _e24;
        }
        uint _e25 = word_1;
        uint tag = (_e25 & 3221225472u);
        if ((tag == PREFIX)) {
            uint _e30 = prefix_2;
            uint _e31 = word_1;
            prefix_2 = (_e30 + (_e31 & COUNT_MASK));
            break;
        }
        if ((tag == AGGREGATE)) {
            uint _e37 = prefix_2;
            uint _e38 = word_1;
            prefix_2 = (_e37 + (_e38 & COUNT_MASK));
            uint _e42 = k_8;
            k_8 = (_e42 - 1u);
        }
    }
    uint _e45 = prefix_2;
    return _e45;
}

uint wk_sg_invocation_id() {
    uint _e1 = wk_sg_lane;
    return _e1;
}

uint wk2_() {
    uint _e0 = wk_sg_invocation_id();
    return _e0;
}

uint wk_sg_group_size() {
    return 32u;
}

uint wk3_() {
    uint _e0 = wk_sg_group_size();
    return _e0;
}

uint wk_sg_shuffle_u32_(uint value_3, uint lane_1) {
    uint _e2 = subgroupShuffle(value_3, lane_1);
    return _e2;
}

uint wk4_(uint value_4, uint lane_2) {
    uint _e2 = wk_sg_shuffle_u32_(value_4, lane_2);
    return _e2;
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
    uint t_2 = gl_LocalInvocationIndex;
    uint wk_subgroupinvocationid_2 = gl_SubgroupInvocationID;
    uint wk_subgroupsize_2 = gl_SubgroupSize;
    uint wk_subgroupid_2 = gl_SubgroupID;
    uvec3 wk_workgroupid_1 = gl_WorkGroupID;
    uvec3 wk_numworkgroups_1 = gl_NumWorkGroups;
    uint k_3 = 0u;
    uint keys_1[6] = uint[6](0u, 0u, 0u, 0u, 0u, 0u);
    uint values[6] = uint[6](0u, 0u, 0u, 0u, 0u, 0u);
    uint s_2 = 0u;
    uint s_3 = 0u;
    uint low_1 = 0u;
    uint high_1 = 0u;
    uint g = 0u;
    uint at_low = 0u;
    uint at_high = 0u;
    uint g_1 = 0u;
    uint ranks[6] = uint[6](0u, 0u, 0u, 0u, 0u, 0u);
    uint s_4 = 0u;
    uint earlier = 0u;
    uint total = 0u;
    uint leader = 0u;
    uint before = 0u;
    uint d = 0u;
    uint prefix = 0u;
    uint s_5 = 0u;
    uint destinations[6] = uint[6](0u, 0u, 0u, 0u, 0u, 0u);
    uint k_4 = 0u;
    uint s_6 = 0u;
    uint k_5 = 0u;
    wk_sg_init(wk_subgroupinvocationid_2, wk_subgroupsize_2);
    wk_blk_init(t_2, wk_subgroupid_2, wk_workgroupid_1, wk_numworkgroups_1, 512u);
    if ((t_2 == 0u)) {
        uint _e7 = atomicAdd(_group_0_binding_6_cs[0], 1u);
        tile_slot = _e7;
    }
    k_3 = t_2;
    bool loop_init_1 = true;
    while(true) {
        if (!loop_init_1) {
            uint _e16 = k_3;
            k_3 = (_e16 + BLOCK);
        }
        loop_init_1 = false;
        uint _e9 = k_3;
        if ((_e9 < 2048u)) {
        } else {
            break;
        }
        {
            uint _e13 = k_3;
            atomicExchange(counters[_e13], 0u);
        }
    }
    memoryBarrierShared();
    barrier();
    uint _e20 = tile_slot;
    memoryBarrierShared();
    barrier();
    uint n_1 = uint(_group_0_binding_0_cs.length());
    if ((_e20 >= (((n_1 + TILE) - 1u) / TILE))) {
        return;
    }
    uint _e30 = wk2_();
    uint _e31 = wk3_();
    uint subgroup = (t_2 / _e31);
    uint first_key = (((_e20 * TILE) + ((subgroup * ITEMS) * _e31)) + _e30);
    bool loop_init_2 = true;
    while(true) {
        if (!loop_init_2) {
            uint _e64 = s_2;
            s_2 = (_e64 + 1u);
        }
        loop_init_2 = false;
        uint _e44 = s_2;
        if ((_e44 < ITEMS)) {
        } else {
            break;
        }
        {
            uint _e47 = s_2;
            uint i_1 = (first_key + (_e47 * _e31));
            uint _e50 = s_2;
            keys_1[_e50] = 4294967295u;
            if ((i_1 < n_1)) {
                uint _e54 = s_2;
                uint _e56 = load_key(i_1);
                keys_1[_e54] = _e56;
                if (PAIRS) {
                    uint _e58 = s_2;
                    uint _e62 = _group_0_binding_2_cs[i_1];
                    values[_e58] = _e62;
                }
            }
        }
    }
    bool loop_init_3 = true;
    while(true) {
        if (!loop_init_3) {
            uint _e90 = s_3;
            s_3 = (_e90 + 1u);
        }
        loop_init_3 = false;
        uint _e68 = s_3;
        if ((_e68 < ITEMS)) {
        } else {
            break;
        }
        {
            uint _e71 = s_3;
            uint _e73 = keys_1[_e71];
            uint _e74 = digit_of(_e73);
            uint _e88 = atomicAdd(counters[((subgroup * PAIRS_OF_DIGITS) + (_e74 / 2u))], (1u << (16u * (_e74 & 1u))));
        }
    }
    memoryBarrierShared();
    barrier();
    uint rows = (BLOCK / _e31);
    if ((t_2 < PAIRS_OF_DIGITS)) {
        bool loop_init_4 = true;
        while(true) {
            if (!loop_init_4) {
                uint _e120 = g;
                g = (_e120 + 1u);
            }
            loop_init_4 = false;
            uint _e102 = g;
            if ((_e102 < rows)) {
            } else {
                break;
            }
            {
                uint _e105 = g;
                uint word_3 = atomicOr(counters[((_e105 * PAIRS_OF_DIGITS) + t_2)], 0u);
                uint _e111 = low_1;
                low_1 = (_e111 + (word_3 & 65535u));
                uint _e115 = high_1;
                high_1 = (_e115 + (word_3 >> 16u));
            }
        }
        uint tag_1 = ((_e20 == 0u) ? PREFIX : AGGREGATE);
        uint _e134 = low_1;
        atomicExchange(_group_0_binding_5_cs[((_e20 * RADIX) + (2u * t_2))], (tag_1 | _e134));
        uint _e145 = high_1;
        atomicExchange(_group_0_binding_5_cs[(((_e20 * RADIX) + (2u * t_2)) + 1u)], (tag_1 | _e145));
    }
    uint _e147 = low_1;
    uint _e148 = high_1;
    uint _e150 = wk_blk_exclusive_add_u32_512_((_e147 + _e148));
    if ((t_2 < PAIRS_OF_DIGITS)) {
        at_low = _e150;
        uint _e154 = low_1;
        at_high = (_e150 + _e154);
        uint _e161 = low_1;
        tile_count[(2u * t_2)] = _e161;
        uint _e168 = high_1;
        tile_count[((2u * t_2) + 1u)] = _e168;
        uint _e173 = at_low;
        tile_first[(2u * t_2)] = _e173;
        uint _e180 = at_high;
        tile_first[((2u * t_2) + 1u)] = _e180;
        bool loop_init_5 = true;
        while(true) {
            if (!loop_init_5) {
                uint _e212 = g_1;
                g_1 = (_e212 + 1u);
            }
            loop_init_5 = false;
            uint _e183 = g_1;
            if ((_e183 < rows)) {
            } else {
                break;
            }
            {
                uint _e186 = g_1;
                uint word_4 = atomicOr(counters[((_e186 * PAIRS_OF_DIGITS) + t_2)], 0u);
                uint _e193 = g_1;
                uint _e198 = at_low;
                uint _e199 = at_high;
                atomicExchange(counters[((_e193 * PAIRS_OF_DIGITS) + t_2)], (_e198 | (_e199 << 16u)));
                uint _e203 = at_low;
                at_low = (_e203 + (word_4 & 65535u));
                uint _e207 = at_high;
                at_high = (_e207 + (word_4 >> 16u));
            }
        }
    }
    memoryBarrierShared();
    barrier();
    uvec4 _e215 = wk1_(true);
    bool loop_init_6 = true;
    while(true) {
        if (!loop_init_6) {
            uint _e325 = s_4;
            s_4 = (_e325 + 1u);
        }
        loop_init_6 = false;
        uint _e219 = s_4;
        if ((_e219 < ITEMS)) {
        } else {
            break;
        }
        {
            uint _e222 = s_4;
            uint _e224 = keys_1[_e222];
            uint _e225 = digit_of(_e224);
            earlier = 0u;
            total = 0u;
            leader = 0u;
            if (NARROW) {
                uint _e235 = same_bit(_e225, 0u);
                uint _e238 = same_bit(_e225, 1u);
                uint _e241 = same_bit(_e225, 2u);
                uint _e244 = same_bit(_e225, 3u);
                uint _e247 = same_bit(_e225, 4u);
                uint _e250 = same_bit(_e225, 5u);
                uint _e253 = same_bit(_e225, 6u);
                uint _e256 = same_bit(_e225, 7u);
                uint peers = ((((((((_e215.x & _e235) & _e238) & _e241) & _e244) & _e247) & _e250) & _e253) & _e256);
                uint _e258 = wk0_(_e30);
                earlier = uint(bitCount((peers & _e258)));
                total = uint(bitCount(peers));
                leader = uint(findLSB(peers));
            } else {
                uvec4 _e264 = same_bit_wide(_e225, 0u);
                uvec4 _e267 = same_bit_wide(_e225, 1u);
                uvec4 _e270 = same_bit_wide(_e225, 2u);
                uvec4 _e273 = same_bit_wide(_e225, 3u);
                uvec4 _e276 = same_bit_wide(_e225, 4u);
                uvec4 _e279 = same_bit_wide(_e225, 5u);
                uvec4 _e282 = same_bit_wide(_e225, 6u);
                uvec4 _e285 = same_bit_wide(_e225, 7u);
                uvec4 peers_1 = ((((((((_e215 & _e264) & _e267) & _e270) & _e273) & _e276) & _e279) & _e282) & _e285);
                uint _e287 = below(peers_1, _e30);
                earlier = _e287;
                uvec4 counts = uvec4(bitCount(peers_1));
                total = (((counts.x + counts.y) + counts.z) + counts.w);
                uint _e296 = lowest(peers_1);
                leader = _e296;
            }
            before = 0u;
            uint _e299 = earlier;
            if ((_e299 == 0u)) {
                uint shift_1 = (16u * (_e225 & 1u));
                uint _e313 = total;
                uint _e315 = atomicAdd(counters[((subgroup * PAIRS_OF_DIGITS) + (_e225 / 2u))], (_e313 << shift_1));
                uint _e316 = counter_half(_e315, _e225);
                before = _e316;
            }
            uint _e317 = s_4;
            uint _e319 = before;
            uint _e320 = leader;
            uint _e321 = wk4_(_e319, _e320);
            uint _e322 = earlier;
            ranks[_e317] = (_e321 + _e322);
        }
    }
    d = t_2;
    bool loop_init_7 = true;
    while(true) {
        if (!loop_init_7) {
            uint _e367 = d;
            d = (_e367 + BLOCK);
        }
        loop_init_7 = false;
        uint _e328 = d;
        if ((_e328 < RADIX)) {
        } else {
            break;
        }
        {
            prefix = 0u;
            if ((_e20 > 0u)) {
                uint _e335 = d;
                uint _e336 = look_back(_e20, _e335);
                prefix = _e336;
                uint _e340 = d;
                uint _e344 = prefix;
                uint _e346 = d;
                uint _e348 = tile_count[_e346];
                atomicExchange(_group_0_binding_5_cs[((_e20 * RADIX) + _e340)], (PREFIX | (_e344 + _e348)));
            }
            uint _e352 = d;
            uint _e356 = d;
            uint _e359 = atomicOr(_group_0_binding_4_cs[(0u + _e356)], 0u);
            uint _e360 = prefix;
            uint _e363 = d;
            uint _e365 = tile_first[_e363];
            digit_base[_e352] = ((_e359 + _e360) - _e365);
        }
    }
    bool loop_init_8 = true;
    while(true) {
        if (!loop_init_8) {
            uint _e388 = s_5;
            s_5 = (_e388 + 1u);
        }
        loop_init_8 = false;
        uint _e372 = s_5;
        if ((_e372 < ITEMS)) {
        } else {
            break;
        }
        {
            uint _e375 = s_5;
            if (((first_key + (_e375 * _e31)) < n_1)) {
                uint _e380 = s_5;
                uint _e382 = ranks[_e380];
                uint _e384 = s_5;
                uint _e386 = keys_1[_e384];
                staged[_e382] = _e386;
            }
        }
    }
    memoryBarrierShared();
    barrier();
    uint tile_keys = min(TILE, (n_1 - (_e20 * TILE)));
    bool loop_init_9 = true;
    while(true) {
        if (!loop_init_9) {
            uint _e420 = k_4;
            k_4 = (_e420 + 1u);
        }
        loop_init_9 = false;
        uint _e398 = k_4;
        if ((_e398 < ITEMS)) {
        } else {
            break;
        }
        {
            uint _e401 = k_4;
            uint j = ((_e401 * BLOCK) + t_2);
            if ((j < tile_keys)) {
                uint key_3 = staged[j];
                uint _e410 = digit_of(key_3);
                uint _e412 = digit_base[_e410];
                uint at = (_e412 + j);
                uint _e416 = store_key(key_3);
                _group_0_binding_1_cs[at] = _e416;
                uint _e417 = k_4;
                destinations[_e417] = at;
            }
        }
    }
    if (PAIRS) {
        memoryBarrierShared();
        barrier();
        bool loop_init_10 = true;
        while(true) {
            if (!loop_init_10) {
                uint _e441 = s_6;
                s_6 = (_e441 + 1u);
            }
            loop_init_10 = false;
            uint _e425 = s_6;
            if ((_e425 < ITEMS)) {
            } else {
                break;
            }
            {
                uint _e428 = s_6;
                if (((first_key + (_e428 * _e31)) < n_1)) {
                    uint _e433 = s_6;
                    uint _e435 = ranks[_e433];
                    uint _e437 = s_6;
                    uint _e439 = values[_e437];
                    staged[_e435] = _e439;
                }
            }
        }
        memoryBarrierShared();
        barrier();
        bool loop_init_11 = true;
        while(true) {
            if (!loop_init_11) {
                uint _e462 = k_5;
                k_5 = (_e462 + 1u);
            }
            loop_init_11 = false;
            uint _e445 = k_5;
            if ((_e445 < ITEMS)) {
            } else {
                break;
            }
            {
                uint _e448 = k_5;
                uint j_1 = ((_e448 * BLOCK) + t_2);
                if ((j_1 < tile_keys)) {
                    uint _e454 = k_5;
                    uint _e456 = destinations[_e454];
                    uint _e460 = staged[j_1];
                    _group_0_binding_3_cs[_e456] = _e460;
                }
            }
        }
        return;
    } else {
        return;
    }
}

