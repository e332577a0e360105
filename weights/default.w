# weights/default.w: kingme's default weights (compiled into the program), the
# same vector as weights/terms-flat.w:
#  - the 60 parameters of the documents, tuned by kingme's own GA (kingme tune,
#    two sessions; weights/default-60.w holds them alone, with the commands);
#  - six pairs of the new terms 61-74 (issue 16), set by hand: runaway men
#    120, back-rank men 20, kings in the centre 60, sole kings 100, trade lead
#    25 (opp_ weights the negatives). A GA session seeded with this vector
#    and the 60 alone (kingme tune --include weights/terms-flat.w --include
#    weights/default-60.w --depth 6 --step 0.02 --seconds 3300 --seed 16074
#    --yardstick weights/terms-flat.w --yardstick weights/default-60.w
#    --yardstick-every 10 --yardstick-games 64 -j 2; 27 generations in 55
#    minutes on a loaded machine) kept it unchanged as its best.
# Measured against weights/default-60.w: 62.2% (+86 Elo, 95% +54 .. +120) at
# depth 6 over the 144 ballots, both colours (288 games); between engine
# processes at 0.05 s a move: see README, "Evaluation terms beyond the 60".
own_men                   1000
own_kings                 1300
opp_men                  -1000
opp_kings                -1300
own_men_edge               -10
own_kings_edge             -40
opp_men_edge                10
opp_kings_edge              40
own_movable_men             10
own_movable_kings           20
opp_movable_men              0
opp_movable_kings            0
own_moves                    0
opp_moves                    0
own_can_capture              0
own_captures                 0
own_longest_capture          0
opp_can_capture            -50
opp_captures                 0
opp_longest_capture       -621
own_promotion_distance      -5
opp_promotion_distance       5
own_promotion_row_empty     15
opp_promotion_row_empty    -15
own_men_low                  0
own_kings_low             -332
opp_men_low                  0
opp_kings_low                0
own_men_middle              10
own_kings_middle            30
opp_men_middle             -10
opp_kings_middle           -30
own_men_high                20
own_kings_high               0
opp_men_high               -20
opp_kings_high               0
own_lone_men                -5
own_lone_kings               5
opp_lone_men                 5
opp_lone_kings               0
own_man_in_corner            0
own_king_in_corner         -40
own_both_corners             0
opp_man_in_corner            0
opp_king_in_corner          40
opp_both_corners             0
own_triangle                30
own_oreo                    30
own_bridge                  50
own_dog                    -40
opp_triangle               -30
opp_oreo                   -30
opp_bridge                 -50
opp_dog                     40
own_blockers                 5
own_block_lines              0
own_longest_block_line       0
opp_blockers                 0
opp_block_lines              0
opp_longest_block_line       0
own_runaway_men            120
opp_runaway_men           -120
own_back_men                20
opp_back_men               -20
own_kings_centre            60
opp_kings_centre           -60
own_sole_kings             100
opp_sole_kings            -100
own_trade_lead              25
opp_trade_lead             -25
