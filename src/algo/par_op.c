/* ember algorithms: naming the combining operator. */
#include <string.h>

#include "ember/parallel.h"

void em_par_op_parse(const char *name, em_par_op *out)
{
    static const char *const names[] = {"add", "mul", "min", "max", "and",
                                        "or", "xor", "argmin", "argmax"};
    out->expr = NULL;
    for (int k = 0; k < (int)(sizeof names / sizeof *names); k++)
        if (name && !strcmp(name, names[k])) {
            out->kind = (em_par_builtin)k;
            return;
        }
    out->kind = EM_PAR_EXPR;
    out->expr = name;
}
