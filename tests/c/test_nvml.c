/* Tests of backend/nvml: nothing opens NVML before the first call, and a
 * missing libnvidia-ml.so.1 is a clear error with NVML's code 12 that
 * names the driver, the same on every later call (the search runs once).
 * tests/python/test_nvml.py runs the rest over a stand-in library. */
#include <string.h>

#include "check.h"
#include "ember/nvml.h"
#include "ember/runtime.h"

int main(void)
{
    unsigned n = 0;
    em_status st;
    em_nvml_field f[65];
    memset(f, 0, sizeof f);
    /* too many fields is refused before NVML is opened */
    CHECK_STATUS(em_nvml_field_values(NULL, 65, f), EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "0 to 64") != NULL);
    CHECK_STATUS(em_nvml_field_values(NULL, -1, f), EM_ERR_INVALID_VALUE);
    CHECK(!em_nvml_loaded());
    CHECK(strcmp(em_vendor_name(EM_VENDOR_NVML), "NVML") == 0);
    st = em_nvml_init();
    if (st == EM_OK) {   /* a real driver: a count, and the pair balanced */
        CHECK(em_nvml_loaded());
        CHECK_OK(em_nvml_count(&n));
        CHECK_OK(em_nvml_shutdown());
        return check_report("test_nvml");
    }
    CHECK(st == EM_ERR_UNAVAILABLE);
    CHECK(em_nvml_code() == EM_NVML_ERROR_LIBRARY_NOT_FOUND);
    CHECK(strstr(em_last_error(), "libnvidia-ml.so.1") != NULL);
    CHECK(strstr(em_last_error(), "NVIDIA driver") != NULL);
    CHECK_STATUS(em_nvml_count(&n), EM_ERR_UNAVAILABLE);
    CHECK(em_nvml_code() == EM_NVML_ERROR_LIBRARY_NOT_FOUND);
    f[0].field_id = EM_NVML_FI_NVLINK_THROUGHPUT_DATA_TX;
    CHECK_STATUS(em_nvml_field_values(NULL, 1, f), EM_ERR_UNAVAILABLE);
    CHECK(em_nvml_code() == EM_NVML_ERROR_LIBRARY_NOT_FOUND);
    CHECK(!em_nvml_loaded());
    return check_report("test_nvml");
}
