/* common.c - helpers several commands share. */
#include "cli.h"
#include "kingme/weights.h"

#include <string.h>
#include <time.h>

bool cli_weights(const char *path, Weights *w)
{
    if (!path || strcmp(path, "default") == 0) {
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

void cli_time_name(char *buf, size_t len, const char *fmt)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    if (strftime(buf, len, fmt, &tm) == 0 && len) buf[0] = '\0';
}
