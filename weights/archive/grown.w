# weights/archive/grown.w: grown from random vectors only (no --include) by kingme's
# learn algorithm with its default controls (population 16, depth 2, init
# heavy, symmetric, rel-step 0.5), session learn-s2 of the learning curves
# (docs/devlog.md, 4dc47d8, 2026-11-22), on the shared 2-core machine (load average 12 to 17):
#   kingme tune --seconds 1800 -j 2 --seed 2 --name learn-s2
# 862 generations, 458656 games, 1802 s of play. The session is deterministic
# given its seed and number of generations: `kingme tune --generations 862
# --seed 2 -j 2 --yardstick none` made the same vector again (458656 games,
# 1563 s of play on the same machine).
# Its scale is the tuner's (Euclidean norm 16384: a man about 6500), not the
# 1000-per-man of the other files; the search's margins were set for those.
# Checked with kingme match at depth 6 over the 144 crossboard ballots, both
# colours (288 games, seed 1): 94.1% against material.w, 67.2% against
# handset.w, 73.6% against default.w of the time, now default-60.w
# (+170 =84 -34). See docs/devlog.md, "Tuning".
#
# The tuner's own header follows.
#   made by kingme 0.1.0 tune, session learn-s2 (population file population/learn-s2.pop), run started 2026-11-22 20:35:26
#   machine: x86_64, 2 cores online; games played on 2 threads
#   algorithm learn, population 16, duels 0 (round robin), ballots 2, depth 2, elite 4, tournament 3, fresh 1, init heavy, symmetric yes, step 0.05, rel-step 0.5, gauss 0.2, mutation 0.1, gladiator 64, openings ballots, seed 2
#   stop after 1800 seconds; 862 generations done, 1801.8 s of play, 458656 games
#   yardstick: every 5 generations and at the stop, 64 games against each of material handset
#   best so far: from generation 862, score 78 of 120
own_men                   6516
own_kings                 8295
opp_men                  -6516
opp_kings                -8295
own_men_edge               -64
own_kings_edge            -701
opp_men_edge                64
opp_kings_edge             701
own_movable_men            -90
own_movable_kings         3373
opp_movable_men             90
opp_movable_kings        -3373
own_moves                  106
opp_moves                 -106
own_can_capture            621
own_captures              1347
own_longest_capture        192
opp_can_capture           -621
opp_captures             -1347
opp_longest_capture       -192
own_promotion_distance     232
opp_promotion_distance    -232
own_promotion_row_empty    762
opp_promotion_row_empty   -762
own_men_low                437
own_kings_low             -885
opp_men_low               -437
opp_kings_low              885
own_men_middle             151
own_kings_middle          -171
opp_men_middle            -151
opp_kings_middle           171
own_men_high               596
own_kings_high            -544
opp_men_high              -596
opp_kings_high             544
own_lone_men              -228
own_lone_kings            -521
opp_lone_men               228
opp_lone_kings             521
own_man_in_corner         -971
own_king_in_corner         336
own_both_corners          -169
opp_man_in_corner          971
opp_king_in_corner        -336
opp_both_corners           169
own_triangle               949
own_oreo                   844
own_bridge                1183
own_dog                  -1319
opp_triangle              -949
opp_oreo                  -844
opp_bridge               -1183
opp_dog                   1319
own_blockers              -440
own_block_lines           -373
own_longest_block_line     152
opp_blockers               440
opp_block_lines            373
opp_longest_block_line    -152
