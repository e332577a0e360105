# kingme hand-set weights (kingme show weights/handset.w): the default until
# kingme tuned its own (weights/default.w), and a seed of that tuning session.
# The evaluation is for the root side; every opp_ weight is the negative of its
# own_ twin, so eval(pos, Black) == -eval(pos, White) and the negamax sees one
# consistent score whichever side started the search. A man is worth 1000.

# material: a king is worth about 1.4 men
own_men                   1000
own_kings                 1400
opp_men                  -1000
opp_kings                -1400

# kings on the side have half their squares; men there are merely passive
own_men_edge               -10
own_kings_edge             -40
opp_men_edge                10
opp_kings_edge              40

# mobility: pieces that can go somewhere, and the number of moves
own_movable_men             10
own_movable_kings           20
opp_movable_men            -10
opp_movable_kings          -20
own_moves                   15
opp_moves                  -15

# a capture pending is material about to change hands; longer ones more so
own_can_capture             50
own_captures                 0
own_longest_capture         50
opp_can_capture            -50
opp_captures                 0
opp_longest_capture        -50

# advancement: every row nearer the crown counts a little (runaway men),
# and holes in the enemy's back rank are where one crowns
own_promotion_distance      -5
opp_promotion_distance       5
own_promotion_row_empty     15
opp_promotion_row_empty    -15

# rows: men in the centre rows, far advanced men (runaways), central kings
own_men_low                  0
own_kings_low                0
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

# an isolated man has no support
own_lone_men                -5
own_lone_kings               0
opp_lone_men                 5
opp_lone_kings               0

# a king in the single corner is nearly shut in
own_man_in_corner            0
own_king_in_corner         -40
own_both_corners             0
opp_man_in_corner            0
opp_king_in_corner          40
opp_both_corners             0

# back-rank guards keep the enemy from crowning; a man in the dog hole is stuck
own_triangle                30
own_oreo                    30
own_bridge                  50
own_dog                    -40
opp_triangle               -30
opp_oreo                   -30
opp_bridge                 -50
opp_dog                     40

# men that back each other up cannot be jumped from behind the supporter
own_blockers                 5
own_block_lines              0
own_longest_block_line       0
opp_blockers                -5
opp_block_lines              0
opp_longest_block_line       0
