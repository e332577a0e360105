/* perft.c - kingme perft DEPTH [--fen FEN] [--divide] */
#include "cli.h"
#include "kingme/movegen.h"
#include "kingme/notation.h"

#include <stdio.h>
#include <string.h>

static int run(int argc, char **argv)
{
    const char *fen = NULL, *depth_s = NULL;
    bool divide = false, nohash = false;
    long long hash_mb = 64;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fen") == 0) {
            if (!(fen = cli_value("perft", argc, argv, &i))) return 2;
        } else if (strcmp(argv[i], "--divide") == 0) {
            divide = true;
        } else if (strcmp(argv[i], "--nohash") == 0) {
            nohash = true;
        } else if (strcmp(argv[i], "--hash") == 0) {
            const char *v = cli_value("perft", argc, argv, &i);
            if (!v) return 2;
            if (!cli_int(v, 1, 65536, &hash_mb))
                return cli_usage_error("perft", "--hash '%s' is not a size in MB from 1 to 65536", v);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage_error("perft", "unknown flag '%s'", argv[i]);
        } else if (!depth_s) {
            depth_s = argv[i];
        } else {
            return cli_usage_error("perft", "unexpected argument '%s'", argv[i]);
        }
    }
    long long depth;
    if (!depth_s) return cli_usage_error("perft", "give a depth");
    if (!cli_int(depth_s, 1, 40, &depth))
        return cli_usage_error("perft", "depth '%s' is not a number from 1 to 40", depth_s);
    Board b;
    if (!cli_board(fen, &b)) return 1;
    PerftTable table = {NULL, 0};
    if (!nohash && perft_table_init(&table, (size_t)hash_mb))
        return cli_error("perft: cannot allocate a %lld MB table (try --hash with less)", hash_mb);
#define COUNT(bd, d) (nohash ? perft((bd), (d)) : perft_hashed((bd), (d), &table))
    double t0 = km_now();
    uint64_t total = 0;
    if (divide) {
        MoveList ml;
        gen_moves(&b, &ml);
        for (int i = 0; i < ml.count; i++) {
            Board c = b;
            make_move(&c, &ml.moves[i]);
            uint64_t n = COUNT(&c, (int)depth - 1);
            char t[MOVE_TEXT_MAX];
            move_to_text(&ml.moves[i], t);
            printf("%-12s %llu\n", t, (unsigned long long)n);
            total += n;
        }
        printf("moves %d\n", ml.count);
    } else {
        total = COUNT(&b, (int)depth);
    }
    double s = km_now() - t0;
    printf("perft %lld: %llu leaves, %.3f s, %.1f Mnps%s\n", depth, (unsigned long long)total, s,
           s > 0 ? (double)total / s / 1e6 : 0.0, nohash ? " (no table)" : "");
    perft_table_free(&table);
    return 0;
}

const CliCommand cmd_perft = {
    "perft", run, "count the leaves of the move tree (verifies the move generator)",
    "kingme perft DEPTH [--fen FEN] [--divide] [--hash MB | --nohash]\n"
    "  Counts the positions DEPTH plies ahead (each capture path counted once).\n"
    "  --fen FEN   start from FEN instead of the initial position\n"
    "  --divide    also print the count below each first move\n"
    "  --hash MB   size of the table of counted subtrees (default 64); entries keep\n"
    "              the whole position, so the count is exact\n"
    "  --nohash    count every leaf by generating it (the raw generator speed)\n"
    "example: kingme perft 10  ->  perft 10: 18391564 leaves, ...",
};
