"""A pandas-style analysis of taxi trips with ember.frame, as cuDF's
tutorials teach it: read a CSV, parse its timestamps, filter, derive
columns, group and aggregate, join a lookup table, take a rolling mean and
the top rows. The same program runs on the cpu and on the GPU; each
result is checked against pandas on the same file."""
import os
import tempfile

import numpy as np
import pandas as pd

import ember
from _common import SMALL, devices, report, timed

N = 20_000 if SMALL else 2_000_000


def write_trips(path, n, rng):
    start = np.datetime64("2026-01-01T00:00:00")
    pickup = start + rng.integers(0, 31 * 86400, n).astype("timedelta64[s]")
    trips = pd.DataFrame({
        "pickup": pd.Series(pickup).dt.strftime("%Y-%m-%d %H:%M:%S"),
        "zone": rng.integers(1, 64, n),
        "passengers": rng.integers(1, 7, n),
        "miles": np.round(rng.gamma(2.0, 1.5, n), 2),
        "fare": np.round(rng.gamma(3.0, 5.0, n), 2),
        "tip": np.round(rng.gamma(1.0, 1.2, n), 2),
        "payment": rng.choice(["card", "cash", "card ", "no charge"], n),
    })
    trips.to_csv(path, index=False)


def zones(lib, **kw):
    ids = np.arange(1, 64)
    return lib.DataFrame({"zone": ids,
                          "borough": [("Manhattan", "Queens", "Brooklyn", "Bronx")[i % 4]
                                      for i in ids]}, **kw)


def analysis(lib, path, **kw):
    """Every step a pandas user writes; lib is pandas or ember."""
    t = lib.read_csv(path, parse_dates=["pickup"], **kw)
    t = t[(t["miles"] > 0.5) & (t["fare"] < 60)]
    t = t.assign(hour=t["pickup"].dt.hour, tip_pct=t["tip"] / t["fare"] * 100,
                 payment=t["payment"].str.strip().str.upper())
    by_hour = t.groupby("hour").agg(trips=("fare", "size"), fare=("fare", "mean"),
                                    tip_pct=("tip_pct", "median")).reset_index()
    joined = t.merge(zones(lib, **kw), on="zone", how="left")
    by_borough = joined.groupby(["borough", "payment"], as_index=False)["fare"].sum()
    daily = (t.sort_values("pickup", kind="stable")["fare"].rolling(1000, min_periods=1).mean()
             .reset_index(drop=True))
    top = t.nlargest(5, "tip_pct")[["zone", "fare", "tip", "tip_pct"]].reset_index(drop=True)
    return by_hour, by_borough, daily, top


def same(got, want):
    got = [g.to_pandas() for g in got]
    try:
        for g, w in zip(got, want):
            if isinstance(w, pd.Series):
                pd.testing.assert_series_equal(g, w, rtol=1e-9)
            else:
                pd.testing.assert_frame_equal(g, w, rtol=1e-9)
    except AssertionError as e:
        print(e)
        return False
    return True


def main():
    print(f"taxi trips: {N} rows in a CSV, analysed with pandas' spellings")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "trips.csv")
        write_trips(path, N, np.random.default_rng(7))
        want = analysis(pd, path)
        pd_ms = timed(lambda: analysis(pd, path), repeat=2)
        for dev in devices():
            got = analysis(ember, path, device=dev)
            sync = ember.Device(dev).synchronize
            ms = timed(lambda: (analysis(ember, path, device=dev), sync()), repeat=2)
            report("read_csv .. groupby .. merge ..", dev, ms, same(got, want),
                   f"pandas {pd_ms:.1f} ms; {len(want[0])} hours, "
                   f"{len(want[1])} borough x payment rows")


if __name__ == "__main__":
    main()
