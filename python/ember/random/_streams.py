"""Where a bit generator's stream stands, in Python integers.

The kernels draw the words; these few lines only move a state past the
words a fill used and produce the one or two words a state keeps buffered
(NumPy's half-used 32-bit draw, Philox's block), so a state after a call
is NumPy's own. PCG64 and PCG64DXSM (the same LCG with a 64-bit
multiplier, and another output function) jump by Brown's LCG power
method (log2(k) steps);
Philox4x64-10 is Salmon et al.'s counter-based function.
"""

M64 = (1 << 64) - 1
M128 = (1 << 128) - 1
PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645
# PCG64DXSM's LCG multiplier, also its output's (NumPy's "cheap" one)
DXSM_MULT = 0xDA942042E4DD58B5
# NumPy's jumped(): the LCG moves by this many steps a jump (about
# 2^128 / phi), for PCG64 and PCG64DXSM alike
PCG_JUMP = 0x9E3779B97F4A7C15F39CC0605CEDC835

PHILOX_M = (0xD2E7470EE14C6C93, 0xCA5A826395121157)
PHILOX_W = (0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B)


def pcg_power(inc, k, mult=PCG_MULT):
    """(m, a): k LCG steps take a state s to m s + a."""
    acc_m, acc_a, m, a = 1, 0, mult, inc
    while k:
        if k & 1:
            acc_m = acc_m * m & M128
            acc_a = (acc_a * m + a) & M128
        a = (m + 1) * a & M128
        m = m * m & M128
        k >>= 1
    return acc_m, acc_a


def pcg_advance(state, inc, k, mult=PCG_MULT):
    """The LCG state k steps after state."""
    m, a = pcg_power(inc, k, mult)
    return (m * state + a) & M128


def pcg_output(state):
    """XSL-RR: the 64-bit word a stepped state gives."""
    rot = state >> 122
    x = ((state >> 64) ^ state) & M64
    return ((x >> rot) | (x << (-rot & 63))) & M64


def dxsm_output(state):
    """PCG64DXSM's word of a state, taken before the state's step."""
    hi, lo = state >> 64, state & M64
    hi ^= hi >> 32
    hi = hi * DXSM_MULT & M64
    hi ^= hi >> 48
    return hi * (lo | 1) & M64


def philox_block(ctr, key):
    """The four words of counter ctr (an int below 2^256) under key."""
    c = [(ctr >> (64 * i)) & M64 for i in range(4)]
    k0, k1 = key
    for r in range(10):
        if r:
            k0 = (k0 + PHILOX_W[0]) & M64
            k1 = (k1 + PHILOX_W[1]) & M64
        p0 = PHILOX_M[0] * c[0]
        p1 = PHILOX_M[1] * c[2]
        c = [(p1 >> 64) ^ c[1] ^ k0, p1 & M64, (p0 >> 64) ^ c[3] ^ k1,
             p0 & M64]
    return c
