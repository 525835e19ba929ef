"""Prints the table of PCG64 jumps that kernels/random_bits.cuh holds
between its `pcg jumps` markers (paste the output there):

    python3 tools/gen_pcg_jumps.py

Entry k is the LCG's 2^k-step power without its increment: 2^k steps take
a state s to A_k s + inc S_k with A_k = M^(2^k) and S_k = 1 + M + ... +
M^(2^k - 1) (mod 2^128), neither of which depends on the increment, so
one table serves every stream. A seek of g words then takes two 128-bit
multiplies a set bit of g (tests/python/test_random_jumps.py checks the
table against this script and the seeks against Python's big integers)."""

M128 = (1 << 128) - 1
PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645


def jumps(bits=64):
    """[(A_k, S_k)] for k < bits."""
    out, a, s = [], PCG_MULT, 1
    for _ in range(bits):
        out.append((a, s))
        s = s * (a + 1) & M128   # S_{k+1} = S_k (1 + A_k)
        a = a * a & M128
    return out


def text():
    rows = []
    for a, s in jumps():
        rows.append("    {0x%016XULL, 0x%016XULL, 0x%016XULL, 0x%016XULL}," %
                    (a >> 64, a & (2**64 - 1), s >> 64, s & (2**64 - 1)))
    return ("__constant__ const unsigned long long rnd_pcg_jump[64][4] = {\n" +
            "\n".join(rows) + "\n};\n")


if __name__ == "__main__":
    print(text(), end="")
