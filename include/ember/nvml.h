/* ember: the NVIDIA Management Library (NVML), opened with dlopen on the
 * first call (never when ember is loaded), for the state of every GPU:
 * memory, utilisation, temperature, power, clocks, PCIe traffic, ECC,
 * throttling and processes. NVML never initialises CUDA, so asking these
 * creates no context and does not call cuInit.
 *
 * Functions are resolved by their versioned names with fallbacks to the
 * older ones (nvmlInit_v2 then nvmlInit, ...), so an older or newer driver
 * works. Every call returns em_status; when NVML itself failed (or could
 * not be found), em_nvml_code() gives NVML's return code for the calling
 * thread, as pynvml's NVMLError numbers them. */
#ifndef EMBER_NVML_H
#define EMBER_NVML_H

#include <stddef.h>
#include <stdint.h>
#include "ember/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NVML's return codes that ember itself produces or tests. */
enum {
    EM_NVML_SUCCESS = 0,
    EM_NVML_ERROR_UNINITIALIZED = 1,
    EM_NVML_ERROR_INVALID_ARGUMENT = 2,
    EM_NVML_ERROR_NOT_SUPPORTED = 3,
    EM_NVML_ERROR_INSUFFICIENT_SIZE = 7,
    EM_NVML_ERROR_LIBRARY_NOT_FOUND = 12,
    EM_NVML_ERROR_FUNCTION_NOT_FOUND = 13,
    EM_NVML_ERROR_UNKNOWN = 999
};

/* A GPU as NVML names it (nvmlDevice_t); valid until em_nvml_shutdown. */
typedef struct em_nvml_device em_nvml_device;

typedef struct em_nvml_memory {
    uint64_t total, free, used, reserved; /* bytes; reserved 0 for version 1 */
} em_nvml_memory;

typedef struct em_nvml_process {
    unsigned pid;
    uint64_t used_memory; /* bytes; UINT64_MAX when NVML cannot tell */
} em_nvml_process;

typedef struct em_nvml_pci {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32]; /* "00000000:17:00.0" */
} em_nvml_pci;

/* One entry of nvmlDeviceGetFieldValues: field_id and scope_id (a link,
 * or 0xFFFFFFFF for all links where the field allows it) in, the rest
 * out. nvml_return is the field's own NVML code (NOT_SUPPORTED on a card
 * without the field); value_type says which member of value holds it:
 * 0 d, 1 u32, 2 and 3 u64, 4 i64, 5 i32, 6 u16. */
typedef struct em_nvml_field {
    unsigned field_id, scope_id;
    int64_t timestamp, latency_usec; /* microseconds */
    int value_type, nvml_return;
    union {
        double d;
        uint64_t u64;
        int64_t i64;
        uint32_t u32;
        int32_t i32;
        uint16_t u16;
    } value;
} em_nvml_field;

/* NVML's field ids ember reads: NVLink data throughput, cumulative KiB. */
enum {
    EM_NVML_FI_NVLINK_LINK_COUNT = 91,
    EM_NVML_FI_NVLINK_THROUGHPUT_DATA_TX = 138,
    EM_NVML_FI_NVLINK_THROUGHPUT_DATA_RX = 139,
    EM_NVML_FI_NVLINK_THROUGHPUT_RAW_TX = 140,
    EM_NVML_FI_NVLINK_THROUGHPUT_RAW_RX = 141
};

/* NVML's return code of the calling thread's last failed em_nvml_ call. */
int em_nvml_code(void);

/* Open NVML (once; a missing libnvidia-ml.so.1 is EM_ERR_UNAVAILABLE with
 * code 12, naming the NVIDIA driver) and initialise it. Counted as NVML
 * counts: each em_nvml_init wants one em_nvml_shutdown. */
em_status em_nvml_init(void);
em_status em_nvml_shutdown(void);

/* Whether libnvidia-ml has been opened by this process (for tests that
 * check `import ember` leaves it alone). Never opens it. */
int em_nvml_loaded(void);

em_status em_nvml_count(unsigned *n);
em_status em_nvml_handle_by_index(unsigned i, em_nvml_device **out);
em_status em_nvml_handle_by_uuid(const char *uuid, em_nvml_device **out);
/* NUL-terminated text into buf of n bytes (96 holds any name, 80 any uuid
 * or version). */
em_status em_nvml_name(em_nvml_device *d, char *buf, unsigned n);
em_status em_nvml_uuid(em_nvml_device *d, char *buf, unsigned n);
em_status em_nvml_driver_version(char *buf, unsigned n);
/* version 1: NVML's first struct (used counts the driver's reservation);
 * 2: nvmlDeviceGetMemoryInfo_v2, used without it and reserved apart. */
em_status em_nvml_memory_info(em_nvml_device *d, int version, em_nvml_memory *out);
em_status em_nvml_utilization(em_nvml_device *d, unsigned *gpu, unsigned *memory);
/* sensor 0 is the GPU die (NVML_TEMPERATURE_GPU); degrees C. */
em_status em_nvml_temperature(em_nvml_device *d, int sensor, unsigned *celsius);
em_status em_nvml_power_usage(em_nvml_device *d, unsigned *milliwatts);
em_status em_nvml_power_limit(em_nvml_device *d, unsigned *milliwatts);
/* type as NVML_CLOCK_GRAPHICS 0, SM 1, MEM 2, VIDEO 3; MHz. */
em_status em_nvml_clock(em_nvml_device *d, int type, unsigned *mhz);
/* counter 0 TX, 1 RX; KB/s over NVML's last 20 ms. */
em_status em_nvml_pcie_throughput(em_nvml_device *d, int counter, unsigned *kbps);
/* n fields at once (nvmlDeviceGetFieldValues); a field the card lacks
 * fails only its own nvml_return. */
em_status em_nvml_field_values(em_nvml_device *d, int n, em_nvml_field *fields);
/* Whether NVLink `link` is active (1) or not (0). */
em_status em_nvml_nvlink_state(em_nvml_device *d, unsigned link, int *active);
/* error_type 0 corrected, 1 uncorrected; counter 0 volatile, 1 aggregate. */
em_status em_nvml_ecc_errors(em_nvml_device *d, int error_type, int counter,
                             uint64_t *count);
/* NVML's bit mask of clock event (throttle) reasons. */
em_status em_nvml_throttle_reasons(em_nvml_device *d, uint64_t *mask);
em_status em_nvml_pci_info(em_nvml_device *d, em_nvml_pci *out);
/* The compute processes: *n holds out's room on entry, the count on
 * return; too little room is code 7 (INSUFFICIENT_SIZE) with the needed
 * count in *n. */
em_status em_nvml_processes(em_nvml_device *d, em_nvml_process *out, unsigned *n);

#ifdef __cplusplus
}
#endif
#endif
