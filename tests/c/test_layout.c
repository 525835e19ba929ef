/* Tests of core/layout: broadcasting, axis merging, the 32-bit fit and
 * the overlap check that every generator and array function shares. The
 * expected values are worked out by hand from the rules in layout.h. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "core/layout.h"

#define G31 ((int64_t)1 << 31)

/* ---- broadcast -------------------------------------------------------- */

static void test_broadcast_shapes(void)
{
    int64_t a[] = {4, 1, 3}, b[] = {5, 1}, c[] = {1}, bad[] = {2};
    int64_t out[EM_MAX_NDIM];
    int nd = -1;

    {
        int ndim[] = {3, 2, 1};
        const int64_t *sh[] = {a, b, c};
        CHECK_OK(em_layout_broadcast(3, ndim, sh, &nd, out));
        CHECK(nd == 3 && out[0] == 4 && out[1] == 5 && out[2] == 3);
    }
    {
        /* NULL entries (scalars) are skipped; all skipped gives 0-d */
        int ndim[] = {7, 0};
        const int64_t *sh[] = {NULL, NULL};
        nd = -1;
        CHECK_OK(em_layout_broadcast(2, ndim, sh, &nd, out));
        CHECK(nd == 0);
        CHECK_OK(em_layout_broadcast(0, ndim, sh, &nd, out));
        CHECK(nd == 0);
    }
    {
        /* a 0-d operand broadcasts with anything; 0 against 1 gives 0 */
        int64_t z[] = {0, 3}, one[] = {1, 1};
        int ndim[] = {0, 2, 2};
        const int64_t *sh[] = {a, z, one};
        CHECK_OK(em_layout_broadcast(3, ndim, sh, &nd, out));
        CHECK(nd == 2 && out[0] == 0 && out[1] == 3);
    }
    {
        /* the error names the shape so far and the one that fails */
        int ndim[] = {3, 1};
        const int64_t *sh[] = {a, bad};
        CHECK_STATUS(em_layout_broadcast(2, ndim, sh, &nd, out),
                     EM_ERR_INVALID_VALUE);
        CHECK(strstr(em_last_error(), "(4, 1, 3)") != NULL);
        CHECK(strstr(em_last_error(), "(2,)") != NULL);
    }
    {
        /* 0 does not broadcast against 2 */
        int64_t z[] = {0}, two[] = {2};
        int ndim[] = {1, 1};
        const int64_t *sh[] = {z, two};
        CHECK_STATUS(em_layout_broadcast(2, ndim, sh, &nd, out),
                     EM_ERR_INVALID_VALUE);
    }
}

static void test_broadcast_strides(void)
{
    int64_t shape[] = {2, 3, 4};
    int64_t ash[] = {3, 1}, ast[] = {40, 8}, out[3];
    int64_t full_sh[] = {2, 3, 4}, full_st[] = {-96, 32, 8};
    em_layout_broadcast_strides(2, ash, ast, 3, shape, out);
    CHECK(out[0] == 0 && out[1] == 40 && out[2] == 0);
    em_layout_broadcast_strides(3, full_sh, full_st, 3, shape, out);
    CHECK(out[0] == -96 && out[1] == 32 && out[2] == 8);
    {
        /* an axis of extent 1 in the call steps nobody */
        int64_t bs[] = {1, 4}, s1[] = {1, 4}, st1[] = {77, 8}, o[2];
        em_layout_broadcast_strides(2, s1, st1, 2, bs, o);
        CHECK(o[0] == 0 && o[1] == 8);
    }
    /* a 0-d operand against a 0-d call writes nothing */
    em_layout_broadcast_strides(0, NULL, NULL, 0, NULL, out);
}

/* ---- collapse --------------------------------------------------------- */

static void test_collapse(void)
{
    int64_t st[3][EM_MAX_NDIM];
    int used[3] = {1, 1, 0};

    {
        /* C-contiguous float64 (2, 3, 4) and a broadcast row: the row's
         * zero stride over axis 0 stops it merging with axis 1 */
        int64_t sh[] = {2, 3, 4};
        int64_t o[] = {96, 32, 8}, r[] = {0, 32, 8};
        memset(st, 0, sizeof st);
        memcpy(st[0], o, sizeof o);
        memcpy(st[1], r, sizeof r);
        CHECK(em_layout_collapse(3, sh, 3, st, used, -1, 1) == 2);
        CHECK(sh[0] == 2 && sh[1] == 12);
        CHECK(st[0][0] == 96 && st[0][1] == 8);
        CHECK(st[1][0] == 0 && st[1][1] == 8);
    }
    {
        /* reversed (negative strides) contiguous views merge too */
        int64_t sh[] = {3, 4};
        memset(st, 0, sizeof st);
        st[0][0] = -32;
        st[0][1] = -8;
        CHECK(em_layout_collapse(2, sh, 1, st, NULL, -1, 1) == 1);
        CHECK(sh[0] == 12 && st[0][0] == -8);
        /* but a reversed inner axis under a forward outer one does not */
        sh[0] = 3;
        sh[1] = 4;
        st[0][0] = 32;
        st[0][1] = -8;
        CHECK(em_layout_collapse(2, sh, 1, st, NULL, -1, 1) == 2);
    }
    {
        /* zero strides (a broadcast scalar) merge with each other */
        int64_t sh[] = {5, 6};
        memset(st, 0, sizeof st);
        st[0][0] = 48;
        st[0][1] = 8;
        CHECK(em_layout_collapse(2, sh, 2, st, used, -1, 1) == 1);
        CHECK(sh[0] == 30 && st[0][0] == 8 && st[1][0] == 0);
    }
    {
        /* an unused operand's strides do not block a merge, but move */
        int64_t sh[] = {5, 6};
        memset(st, 0, sizeof st);
        st[0][0] = 48;
        st[0][1] = 8;
        st[2][0] = 1000;
        st[2][1] = 7;
        CHECK(em_layout_collapse(2, sh, 3, st, used, -1, 1) == 1);
        CHECK(st[2][0] == 7);
    }
    {
        /* size-1 axes go; all of them going leaves 0 axes; a 0-d call
         * has none to begin with */
        int64_t sh[] = {1, 7, 1}, one[] = {1, 1};
        memset(st, 0, sizeof st);
        st[0][0] = 999;
        st[0][1] = 4;
        st[0][2] = 3;
        CHECK(em_layout_collapse(3, sh, 1, st, NULL, -1, 1) == 1);
        CHECK(sh[0] == 7 && st[0][0] == 4);
        CHECK(em_layout_collapse(2, one, 1, st, NULL, -1, 1) == 0);
        CHECK(em_layout_collapse(0, one, 1, st, NULL, -1, 1) == 0);
    }
    {
        /* a 0-size axis stays (it is not extent 1) and still merges */
        int64_t sh[] = {0, 4};
        memset(st, 0, sizeof st);
        st[0][0] = 32;
        st[0][1] = 8;
        CHECK(em_layout_collapse(2, sh, 1, st, NULL, -1, 1) == 1);
        CHECK(sh[0] == 0 && st[0][0] == 8);
    }
    {
        /* a run whose byte product passes int64 does not merge, even
         * where the wrapped product would equal the outer stride */
        int64_t sh[] = {2, (int64_t)1 << 62};
        memset(st, 0, sizeof st);
        st[0][0] = 0;
        st[0][1] = 4;
        CHECK(em_layout_collapse(2, sh, 1, st, NULL, -1, 1) == 2);
    }
    {
        /* without merge, only the extent-1 axes go */
        int64_t sh[] = {3, 1, 4};
        memset(st, 0, sizeof st);
        st[0][0] = 32;
        st[0][2] = 8;
        CHECK(em_layout_collapse(3, sh, 1, st, NULL, -1, 0) == 2);
        CHECK(sh[0] == 3 && sh[1] == 4 && st[0][0] == 32 && st[0][1] == 8);
    }
    {
        /* sorted by |stride| of the key operand (a transposed output):
         * the axes swap, then merge; the other operand's rows follow */
        int64_t sh[] = {4, 3};
        memset(st, 0, sizeof st);
        st[0][0] = 8;
        st[0][1] = 32;
        st[1][0] = 8;
        st[1][1] = 32;
        CHECK(em_layout_collapse(2, sh, 2, st, used, 0, 1) == 1);
        CHECK(sh[0] == 12 && st[0][0] == 8 && st[1][0] == 8);
        /* stable: equal |strides| keep their order */
        sh[0] = 2;
        sh[1] = 3;
        st[0][0] = -8;
        st[0][1] = 8;
        st[1][0] = 1;
        st[1][1] = 2;
        CHECK(em_layout_collapse(2, sh, 2, st, used, 0, 0) == 2);
        CHECK(sh[0] == 2 && st[1][0] == 1 && st[1][1] == 2);
    }
}

static void test_run(void)
{
    int64_t e = -1, s = -1;
    int64_t sh[] = {2, 1, 3}, st[] = {24, 999, 8};
    CHECK(em_layout_run(3, sh, st, 0, &e, &s) && e == 6 && s == 8);
    /* no axis left: one element, stride 0 */
    CHECK(em_layout_run(0, sh, st, 0, &e, &s) && e == 1 && s == 0);
    CHECK(em_layout_run(2, (int64_t[]){1, 1}, st, 0, &e, &s) && e == 1 &&
          s == 0);
    /* a transposed pair is one run only once sorted */
    {
        int64_t tsh[] = {4, 3}, tst[] = {8, 32};
        CHECK(!em_layout_run(2, tsh, tst, 0, &e, &s));
        CHECK(em_layout_run(2, tsh, tst, 1, &e, &s) && e == 12 && s == 8);
    }
    /* a gap (every other row) is not one run */
    {
        int64_t gsh[] = {3, 4}, gst[] = {64, 8};
        CHECK(!em_layout_run(2, gsh, gst, 0, &e, &s));
    }
    /* an empty axis empties the run, whatever the strides: (2, 0) bool
     * has strides (1, 1), which do not chain */
    {
        int64_t esh[] = {2, 0}, est[] = {1, 1};
        CHECK(em_layout_run(2, esh, est, 0, &e, &s) && e == 0 && s == 0);
        CHECK(em_layout_run(2, esh, est, 1, &e, &s) && e == 0 && s == 0);
    }
}

/* ---- 32-bit fit ------------------------------------------------------- */

static void test_fits32(void)
{
    int64_t st[2][EM_MAX_NDIM];
    int used[2] = {1, 0};
    int64_t sh[2];

    CHECK(em_layout_fits32(0, NULL, 0, NULL, NULL, G31 - 1, 0));
    CHECK(!em_layout_fits32(0, NULL, 0, NULL, NULL, G31, 0));

    /* span (extent-1)*|stride| up to 2^31 - 1 fits, 2^31 does not */
    sh[0] = 2;
    memset(st, 0, sizeof st);
    st[0][0] = G31 - 1;
    CHECK(em_layout_fits32(1, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st, used,
                           2, 0));
    st[0][0] = -(G31 - 1); /* negative strides count by magnitude */
    CHECK(em_layout_fits32(1, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st, used,
                           2, 0));
    st[0][0] = G31;
    CHECK(!em_layout_fits32(1, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st,
                            used, 2, 0));
    /* the margin counts against the limit */
    st[0][0] = G31 - 16;
    CHECK(em_layout_fits32(1, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st, used,
                           2, 15));
    CHECK(!em_layout_fits32(1, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st,
                            used, 2, 16));
    /* spans add over axes */
    sh[0] = 3;
    sh[1] = 3;
    st[0][0] = G31 / 4;
    st[0][1] = G31 / 4;
    CHECK(!em_layout_fits32(2, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st,
                            used, 9, 0));
    sh[1] = 2;
    CHECK(em_layout_fits32(2, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st, used,
                           6, 0));
    /* an unused operand is not looked at; a used one is */
    st[1][0] = G31 * 4;
    CHECK(em_layout_fits32(2, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st, used,
                           6, 0));
    CHECK(!em_layout_fits32(2, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st, NULL,
                            6, 0));
    /* a huge stride on an extent-1 axis is never multiplied */
    sh[0] = 1;
    sh[1] = 4;
    st[0][0] = G31 * 8;
    st[0][1] = 8;
    CHECK(em_layout_fits32(2, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st, used,
                           4, 0));
    /* a span that overflows int64 does not fit (nor wrap to "fits") */
    sh[0] = INT64_MAX / 2;
    sh[1] = 2;
    st[0][0] = G31 - 1;
    st[0][1] = 8;
    CHECK(!em_layout_fits32(2, sh, 2, (const int64_t(*)[EM_MAX_NDIM])st,
                            used, 4, 0));
}

/* ---- overlap ---------------------------------------------------------- */

static void test_overlap(void)
{
    static double buf[64];
    int64_t sh1[] = {32}, c8[] = {8}, s16[] = {16}, sh0[] = {0};
    int64_t sh2[] = {4, 8}, rev[] = {-8};
    em_layout_mem whole = {buf, 1, (int64_t[]){64}, c8, 8};
    em_layout_mem lo = {buf, 1, sh1, c8, 8};
    em_layout_mem hi = {buf + 32, 1, sh1, c8, 8};
    em_layout_mem even = {buf, 1, sh1, s16, 8};
    em_layout_mem odd = {buf + 1, 1, sh1, s16, 8};
    em_layout_mem empty = {buf, 1, sh0, c8, 8};
    em_layout_mem zerod = {buf + 5, 0, NULL, NULL, 8};
    em_layout_mem back = {buf + 31, 1, sh1, rev, 8};
    em_layout_mem bcast = {buf + 40, 2, sh2, (int64_t[]){0, 8}, 8};
    em_layout_mem one = {buf + 31, 1, (int64_t[]){1}, c8, 8};
    em_layout_mem next = {buf + 32, 1, (int64_t[]){1}, c8, 8};

    CHECK(em_layout_overlap(&lo, &lo));
    CHECK(em_layout_overlap(&whole, &hi));
    CHECK(!em_layout_overlap(&lo, &hi));
    CHECK(!em_layout_overlap(&hi, &lo));
    /* interleaved strides share the byte range, so they count as
     * overlapping: the check is by extent, conservative by design */
    CHECK(em_layout_overlap(&even, &odd));
    /* empty layouts overlap nothing, not even their own memory */
    CHECK(!em_layout_overlap(&empty, &whole));
    CHECK(!em_layout_overlap(&whole, &empty));
    /* a 0-d operand is one element */
    CHECK(em_layout_overlap(&zerod, &lo));
    CHECK(!em_layout_overlap(&zerod, &hi));
    /* a negative stride reaches down from its base: buf[0..31] */
    CHECK(em_layout_overlap(&back, &lo));
    CHECK(!em_layout_overlap(&back, &hi));
    /* a broadcast (zero-stride) operand spans one row */
    CHECK(em_layout_overlap(&bcast, &hi));
    CHECK(!em_layout_overlap(&bcast, &lo));
    /* neighbouring single elements touch but do not overlap */
    CHECK(!em_layout_overlap(&one, &next));
    CHECK(em_layout_overlap(&one, &lo));
    /* different itemsizes: a float32 view of buf[31]'s second half */
    {
        em_layout_mem f32 = {(char *)(buf + 31) + 4, 1, (int64_t[]){1}, c8,
                             4};
        CHECK(em_layout_overlap(&f32, &one));
        CHECK(!em_layout_overlap(&f32, &next));
    }
}

int main(void)
{
    test_broadcast_shapes();
    test_broadcast_strides();
    test_collapse();
    test_run();
    test_fits32();
    test_overlap();
    return check_report("test_layout");
}
