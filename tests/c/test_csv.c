/* The CSV kernels (ember/csv.h) on the cpu device, driven as read_csv
 * drives them but with the scans done here in plain C: the field ends of
 * a file with quoted separators, doubled quotes, a quoted newline and
 * CRLF, large enough for several chunks; each field's class and value;
 * the unquoted strings; and the argument errors. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ember/csv.h"

static em_device *cpu;

static em_array host_array(em_dtype dt, int64_t n, const void *data)
{
    em_array a = {0};
    CHECK_OK(em_array_empty(cpu, dt, 1, &n, 'C', NULL, &a));
    if (data && n)
        CHECK_OK(em_array_from_host(&a, data, NULL, NULL));
    return a;
}

/* The file: a header and rows "i,"text",f\r\n", some with a quoted
 * separator, a doubled quote or a newline inside the quotes. */
static char *make_file(int rows, int64_t *len)
{
    size_t cap = (size_t)rows * 64 + 64, at = 0;
    char *s = malloc(cap);
    at += (size_t)snprintf(s, cap, "i,t,f\n");
    for (int r = 0; r < rows; r++) {
        const char *t = r % 3 == 0   ? "\"a,b\""
                        : r % 3 == 1 ? "\"q\"\"q\""
                                     : "\"l\nl\"";
        at +=
            (size_t)snprintf(s + at, cap - at, "%d,%s,%d.25\r\n", r - 7, t, r);
    }
    *len = (int64_t)at;
    return s;
}

static void test_file(int rows)
{
    int64_t n, chunk = 0, nch, total = 0;
    char *text = make_file(rows, &n);
    em_array b = host_array(EM_UINT8, n, text), counts = {0}, ends = {0},
             rowend = {0};
    CHECK_OK(em_csv_count(&b, ',', '"', &counts, &chunk, NULL));
    nch = counts.shape[0];
    {
        int64_t *c = malloc((size_t)nch * 24 + 8),
                *qp = malloc((size_t)nch * 8 + 8),
                *of = malloc((size_t)nch * 8 + 16), q = 0;
        CHECK_OK(em_array_to_host(&counts, c, NULL, NULL));
        of[0] = 0;
        for (int64_t i = 0; i < nch; i++) {
            qp[i] = q;
            q += c[3 * i];
            of[i + 1] = of[i] + c[3 * i + 1 + (qp[i] & 1)];
        }
        total = of[nch];
        CHECK(q % 2 == 0);
        CHECK(total == 3 * (rows + 1));
        em_array qa = host_array(EM_INT64, nch, qp),
                 oa = host_array(EM_INT64, nch + 1, of);
        CHECK_OK(em_csv_fields(&b, ',', '"', chunk, &qa, &oa, total, &ends,
                               &rowend, NULL));
        em_array_release(&qa);
        em_array_release(&oa);
        free(c);
        free(qp);
        free(of);
    }
    {
        int64_t *e = malloc((size_t)total * 8);
        uint8_t *re = malloc((size_t)total);
        int bad = 0;
        CHECK_OK(em_array_to_host(&ends, e, NULL, NULL));
        CHECK_OK(em_array_to_host(&rowend, re, NULL, NULL));
        for (int64_t k = 0; k < total; k++)
            bad += re[k] != (k % 3 == 2) ||
                   text[e[k]] != (k % 3 == 2 ? '\n' : ',');
        CHECK(bad == 0);
        free(e);
        free(re);
    }
    {
        const uint8_t na_bytes[] = {'N', 'A'};
        const int64_t na_off[] = {0, 0, 2}; /* "" and "NA" */
        em_array na = host_array(EM_UINT8, 2, na_bytes),
                 no = host_array(EM_INT64, 3, na_off),
                 cls = host_array(EM_UINT8, rows, NULL),
                 val = host_array(EM_INT64, rows, NULL),
                 len = host_array(EM_INT64, rows, NULL);
        uint8_t *c = malloc((size_t)rows);
        int64_t *v = malloc((size_t)rows * 8), *l = malloc((size_t)rows * 8);
        int bad = 0;
        /* column 0: int64; column 2: float64 (x.25, exact) */
        CHECK_OK(em_csv_parse(&b, NULL, &ends, 3, rows, 3, 0, '"',
                              EM_CSV_CLASSIFY, &na, &no, &val, &cls, NULL,
                              NULL));
        CHECK_OK(em_array_to_host(&cls, c, NULL, NULL));
        CHECK_OK(em_array_to_host(&val, v, NULL, NULL));
        for (int r = 0; r < rows; r++)
            bad += (c[r] & (EM_CSV_NA | EM_CSV_NOT_INT | EM_CSV_NOT_FLOAT)) ||
                   v[r] != r - 7;
        CHECK_OK(em_csv_parse(&b, NULL, &ends, 3, rows, 3, 2, '"',
                              EM_CSV_CLASSIFY, &na, &no, &val, &cls, NULL,
                              NULL));
        CHECK_OK(em_array_to_host(&cls, c, NULL, NULL));
        CHECK_OK(em_array_to_host(&val, v, NULL, NULL));
        for (int r = 0; r < rows; r++) {
            double d;
            memcpy(&d, &v[r], 8);
            bad += !(c[r] & EM_CSV_NOT_INT) || (c[r] & EM_CSV_NOT_FLOAT) ||
                   d != r + 0.25;
        }
        /* column 1: unquoted lengths: a,b (3), q"q (3), l\nl (3) */
        CHECK_OK(em_csv_parse(&b, NULL, &ends, 3, rows, 3, 1, '"',
                              EM_CSV_STRLEN, &na, &no, &len, NULL, NULL, NULL));
        CHECK_OK(em_array_to_host(&len, l, NULL, NULL));
        for (int r = 0; r < rows; r++)
            bad += l[r] != 3;
        CHECK(bad == 0);
        /* errors: a wrong dtype, an unknown mode, a column out of range */
        CHECK_STATUS(em_csv_parse(&b, NULL, &ends, 3, rows, 3, 0, '"',
                                  EM_CSV_STRLEN, &na, &no, &cls, NULL, NULL,
                                  NULL),
                     EM_ERR_TYPE);
        CHECK_STATUS(em_csv_parse(&b, NULL, &ends, 3, rows, 3, 0, '"',
                                  (em_csv_mode)99, &na, &no, &val, &cls, NULL,
                                  NULL),
                     EM_ERR_INVALID_VALUE);
        CHECK_STATUS(em_csv_parse(&b, NULL, &ends, 3, rows, 3, 3, '"',
                                  EM_CSV_CLASSIFY, &na, &no, &val, &cls, NULL,
                                  NULL),
                     EM_ERR_INVALID_VALUE);
        CHECK_STATUS(em_csv_parse(&b, NULL, &ends, 3, rows + 1, 3, 0, '"',
                                  EM_CSV_CLASSIFY, &na, &no, &val, &cls, NULL,
                                  NULL),
                     EM_ERR_INVALID_VALUE);
        em_array_release(&na);
        em_array_release(&no);
        em_array_release(&cls);
        em_array_release(&val);
        em_array_release(&len);
        free(c);
        free(v);
        free(l);
    }
    CHECK_STATUS(em_csv_count(&ends, ',', '"', &counts, &chunk, NULL),
                 EM_ERR_TYPE);
    em_array_release(&counts);
    em_array_release(&ends);
    em_array_release(&rowend);
    em_array_release(&b);
    free(text);
}

int main(void)
{
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &cpu));
    test_file(5);
    test_file(20000); /* over a megabyte: several chunks */
    return check_report("test_csv");
}
