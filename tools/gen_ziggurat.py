"""Writes kernels/random_ziggurat.cuh: the tables of Marsaglia and Tsang's
ziggurat (2000) for the standard normal in float32, 256 layers, 23-bit
abscissae, which ember's float32 normals use (kernels/random_fill.cuh).

    python3 tools/gen_ziggurat.py > kernels/random_ziggurat.cuh

Layer i spans [0, x_i) with x_255 = R the tail's start (the layers have
equal area V); a draw j (23 bits) in layer i is x = j * w[i], accepted at
once when j < k[i] (x lies under the next layer's edge), and f[i] is the
density at x_i for the wedge test."""
import math

import numpy as np

R = 3.6541528853610088      # the base layer's edge, for 256 layers
V = 4.92867323399e-3        # each layer's area
M = float(1 << 23)


def density(x):
    return math.exp(-0.5 * x * x)


def tables():
    k = [0] * 256
    w = [0.0] * 256
    f = [0.0] * 256
    dn = tn = R
    q = V / density(dn)
    k[0] = int(dn / q * M)
    k[1] = 0
    w[0] = q / M
    w[255] = dn / M
    f[0] = 1.0
    f[255] = density(dn)
    for i in range(254, 0, -1):
        dn = math.sqrt(-2.0 * math.log(V / dn + density(dn)))
        k[i + 1] = int(dn / tn * M)
        tn = dn
        f[i] = density(dn)
        w[i] = dn / M
    return k, w, f


def floats(name, xs):
    vals = ", ".join(repr(float(np.float32(x))) + "f" for x in xs)
    return f"__device__ const float {name}[256] = {{{vals}}};\n"


def main():
    k, w, f = tables()
    print("/* ember random: the float32 normal ziggurat's tables, written by\n"
          " * tools/gen_ziggurat.py (which says what they are); do not edit. */")
    print("__device__ const unsigned int rnd_zk[256] = {"
          + ", ".join(f"{v}u" for v in k) + "};")
    print(floats("rnd_zw", w), end="")
    print(floats("rnd_zf", f), end="")
    print(f"#define RND_ZR {R!r}f")


if __name__ == "__main__":
    main()
