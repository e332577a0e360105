/* weights.h - weights files: "name value" lines, '#' comments.
 *
 *   # made by kingme tune ...       <- free-form header comments, kept
 *   own_men      1000
 *   opp_men     -1000
 *
 * Parameters not listed are 0; values are integers in -32768..32767.
 * Names: the 60 parameters and the new terms (eval.h); "end.NAME" gives
 * NAME's weight in the ending vector, and any such line turns the phase on
 * (Weights.phased: the opening vector w and the ending vector end are
 * blended by the number of pieces; end weights not listed are 0). */
#ifndef KINGME_WEIGHTS_H
#define KINGME_WEIGHTS_H

#include "kingme/eval.h"

/* Parse weights text. `where` names the source in messages ("weights/x.w").
 * On success returns 0 and, if comments is not NULL, *comments gets a malloc'd
 * copy of the '#' header lines (without the '#'s' text changed; may be "").
 * On error returns -1 with "where:LINE: what" in err (KM_ERR_MAX bytes):
 * unknown parameter, duplicate, value out of range or not a number; or
 * "where: no parameters (...)" for a text without any (empty, comments only);
 * *w is left as it was. */
int weights_parse(Weights *w, const char *text, const char *where, char **comments, char *err);

/* Read a file (as weights_parse); errors also for a missing or unreadable file. */
int weights_read(Weights *w, const char *path, char **comments, char *err);

/* Write every parameter of the 60 (zeros too), the new terms when one is
 * non-zero or there is a phase, and with a phase every "end." weight, after
 * the given comment lines (each line
 * written with "# " in front; NULL for none). Written to PATH.tmp, then
 * renamed over path. Returns 0, or -1 with a message. */
int weights_write(const Weights *w, const char *path, const char *comments, char *err);

/* Whether w gives any of the new terms (61-74) a weight or has a phase: what
 * only the 60 parameters' vector of the documents cannot express. */
bool weights_beyond_60(const Weights *w);

/* The built-in default vector: weights/default.w compiled into the program,
 * so commands work from any directory. */
void weights_default(Weights *w);
/* The same with its header's comment lines (*comments malloc'd, or NULL).
 * Returns 0, or -1 with err. */
int weights_default_with_comments(Weights *w, char **comments, char *err);

/* Format w as weights-file text into a malloc'd string (NULL when out of memory). */
char *weights_format(const Weights *w, const char *comments);

#endif
