"""Graph replay (issue 25, 3): 100 in-place `x += 1` on 1,000 float32,
issued eagerly and replayed from one captured graph, per kernel, for ember
(Stream.begin_capture), CuPy (cupy.cuda.Stream.begin_capture) and PyTorch
(torch.cuda.CUDAGraph) in the same run.

usage: python bench/graphs.py              (on the GPU machine)
       python bench/graphs.py --device cpu (a check of the script; ember only)

Each figure is the median over 7 rounds of the wall time of `reps` launches
of the 100-kernel sequence (eager: 100 operations; graph: one replay)
followed by one synchronize, divided by reps * 100. After the rounds the
array is read back and checked against the count of increments, so a graph
that did not run shows as an error, not as a fast time."""
import argparse

import numpy as np

K = 100          # kernels in the sequence
N = 1000         # float32 elements


def per_kernel_us(step, sync, reps):
    from fusion import median_time   # bench/fusion.py's timing loop
    return median_time(step, sync, reps) / K * 1e6


def ember_case(device, reps):
    import ember
    with ember.Device(device):
        s = ember.Stream(non_blocking=True)
        with s:
            x = ember.zeros(N, dtype=np.float32)

            def seq():
                for _ in range(K):
                    x.__iadd__(1)
            seq()                         # warm-up: the kernel compiles
            eager = per_kernel_us(seq, s.synchronize, reps)
            s.begin_capture()
            seq()
            g = s.end_capture()
            g.upload(s)
            before = float(x[0].get())
            graph = per_kernel_us(lambda: g.launch(s), s.synchronize, reps)
            got = float(x[0].get())
    return eager, graph, got - before, 7 * reps * K


def cupy_case(reps):
    import cupy as cp
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        x = cp.zeros(N, dtype=cp.float32)

        def seq():
            for _ in range(K):
                x.__iadd__(1)
        seq()
        eager = per_kernel_us(seq, s.synchronize, reps)
        s.begin_capture()
        seq()
        g = s.end_capture()
        g.upload(s)
        before = float(x[0])
        graph = per_kernel_us(lambda: g.launch(s), s.synchronize, reps)
        got = float(x[0])
    return eager, graph, got - before, 7 * reps * K


def torch_case(reps):
    import torch
    x = torch.zeros(N, dtype=torch.float32, device="cuda")

    def seq():
        for _ in range(K):
            x.add_(1)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        seq()                             # PyTorch's warm-up on a side stream
    torch.cuda.current_stream().wait_stream(side)
    sync = torch.cuda.synchronize
    eager = per_kernel_us(seq, sync, reps)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        seq()
    before = float(x[0])
    graph = per_kernel_us(g.replay, sync, reps)
    got = float(x[0])
    return eager, graph, got - before, 7 * reps * K


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--reps", type=int, default=50)
    args = ap.parse_args()
    cases = [("ember", lambda: ember_case(args.device, args.reps))]
    if args.device != "cpu":
        cases += [("CuPy", lambda: cupy_case(args.reps)),
                  ("PyTorch", lambda: torch_case(args.reps))]
    print("| library | eager us/kernel | graph replay us/kernel | check |")
    print("|---|---|---|---|")
    for name, run in cases:
        try:
            eager, graph, added, want = run()
        except ImportError as e:
            print("| %s | n/a | n/a | %s |" % (name, e))
            continue
        ok = "ok" if added == want else "WRONG: +%g, expected +%d" % (added, want)
        print("| %s | %.3f | %.3f | %s |" % (name, eager, graph, ok))


if __name__ == "__main__":
    main()
