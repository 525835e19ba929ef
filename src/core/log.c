/* ember core: logging to stderr, filtered by EMBER_LOG. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ember/util.h"

/* -1: not read yet. Racing first readers compute the same value, so a
 * plain int read/written atomically is enough. */
static volatile int em_level = -1;

static int em_level_from_env(void)
{
    const char *v = em_knob_text(EM_KNOB_LOG);
    if (!v)
        return EM_LOG_WARN;
    if (!strcmp(v, "debug")) return EM_LOG_DEBUG;
    if (!strcmp(v, "info")) return EM_LOG_INFO;
    if (!strcmp(v, "warn") || !strcmp(v, "warning")) return EM_LOG_WARN;
    if (!strcmp(v, "off") || !strcmp(v, "none")) return EM_LOG_OFF;
    fprintf(stderr, "ember[warn] log: EMBER_LOG=%s is not one of "
            "debug|info|warn|off; using warn\n", v);
    return EM_LOG_WARN;
}

em_log_level em_log_level_get(void)
{
    int l = em_level;
    if (l < 0)
        em_level = l = em_level_from_env();
    return (em_log_level)l;
}

void em_log_level_set(em_log_level level) { em_level = (int)level; }

void em_log(em_log_level level, const char *module, const char *fmt, ...)
{
    static const char *const names[] = {"debug", "info", "warn", "off"};
    char line[2048];
    va_list ap;
    int n;
    if (level < em_log_level_get() || level >= EM_LOG_OFF)
        return;
    n = snprintf(line, sizeof line, "ember[%s] %s: ", names[level], module);
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof line)
        vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    /* One fputs per line so lines from several threads do not interleave. */
    strncat(line, "\n", sizeof line - strlen(line) - 1);
    fputs(line, stderr);
}
