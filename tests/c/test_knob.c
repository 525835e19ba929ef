/* Tests of core/knob: the one table of ember's environment variables.
 * Tuning knobs are read once and keep their default outside their range
 * or when not an integer; text knobs are read at each call. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void test_table(void)
{
    for (int i = 0; i < EM_KNOB_COUNT; i++) {
        const char *n = em_knob_name((em_knob)i);
        CHECK(n && !strncmp(n, "EMBER_", 6));
        CHECK(em_knob_meaning((em_knob)i) && *em_knob_meaning((em_knob)i));
        for (int j = 0; j < i; j++)
            CHECK(strcmp(n, em_knob_name((em_knob)j)));
    }
    CHECK(!em_knob_name(EM_KNOB_COUNT) && !em_knob_meaning((em_knob)-1));
}

static void test_int_read_once(void)
{
    setenv("EMBER_SCAN_ITEMS", "7", 1);
    CHECK(em_knob_int(EM_KNOB_SCAN_ITEMS, 3) == 7);
    setenv("EMBER_SCAN_ITEMS", "9", 1);
    CHECK(em_knob_int(EM_KNOB_SCAN_ITEMS, 3) == 7);    /* read once */
    setenv("EMBER_SORT_WINDOW", "33", 1);                /* range 1-32 */
    CHECK(em_knob_int(EM_KNOB_SORT_WINDOW, 4) == 4);
    CHECK(em_knob_int(EM_KNOB_SORT_WINDOW, 5) == 5);     /* each caller's own */
    setenv("EMBER_SORT_MINB", "2x", 1);                  /* not an integer */
    CHECK(em_knob_int(EM_KNOB_SORT_MINB, 4) == 4);
    setenv("EMBER_SORT_ADAPT", "0", 1);                  /* 0 is a value */
    CHECK(em_knob_int(EM_KNOB_SORT_ADAPT, 1) == 0);
    unsetenv("EMBER_SCAN_MINB");
    CHECK(em_knob_int(EM_KNOB_SCAN_MINB, 6) == 6);
    CHECK(em_knob_int(EM_KNOB_COUNT, 11) == 11);
}

static void test_text_each_call(void)
{
    setenv("EMBER_LOG", "", 1);
    CHECK(em_knob_text(EM_KNOB_LOG) == NULL);            /* empty is unset */
    setenv("EMBER_LOG", "info", 1);
    CHECK(!strcmp(em_knob_text(EM_KNOB_LOG), "info"));
    setenv("EMBER_LOG", "debug", 1);
    CHECK(!strcmp(em_knob_text(EM_KNOB_LOG), "debug"));
    unsetenv("EMBER_LOG");
    CHECK(em_knob_text(EM_KNOB_LOG) == NULL);
}

int main(void)
{
    test_table();
    test_int_read_once();
    test_text_each_call();
    return check_report("test_knob");
}
