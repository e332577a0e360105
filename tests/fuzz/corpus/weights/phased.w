# phased
own_men 1000
end.own_men 1200
own_kings 1500
end.opp_kings -1400 # ending
own_runaway_men 30
