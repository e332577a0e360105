/* common.c - helpers several commands share. */
#include "cli.h"
#include "kingme/weights.h"

bool cli_weights(const char *path, Weights *w)
{
    if (!path) {
        weights_default(w);
        return true;
    }
    char err[KM_ERR_MAX];
    if (weights_read(w, path, NULL, err)) {
        cli_error("%s", err);
        return false;
    }
    return true;
}
