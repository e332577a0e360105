/* opts_missing.c - a command that asks for options its table lacks, for
 * tests/test_cli.c: tools/opts-check.sh must name each (--depth here, and
 * the endgame database's options through cli_egdb_auto of src/cli/egdb.c).
 * Read by the script only, never built into kingme. */
#include "../../src/cli/cli.h"

static int run(const Opts *o)
{
    struct Egdb *db = NULL;
    return (int)opt_int(o, OPT_DEPTH) + (int)opt_int(o, OPT_HASH) + !cli_egdb_auto(o, &db);
}

static const Opt options[] = {
    CLI_HASH_OPT("the table"),
    OPTS_END,
};

const CliCommand cmd_missing = {
    "missing",
    run,
    "a command whose table lacks what it asks for",
    &(const OptSpec){NULL, 0, 0, "Asks for --depth and the database's options.", options, NULL},
};
