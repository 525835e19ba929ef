/* Expected values for tests/c/test_ufunc.c, taken from NumPy 2.4 on x86-64
 * Linux (facts about NumPy, as data): numpy.<ufunc>.resolve_dtypes,
 * promote_types and can_cast over ember's dtypes; ufunc results on edge
 * values (NaN, infinities, signed zeros, integer limits, shifts past the
 * width); and astype between every pair of dtypes. Produced by running
 * those NumPy calls over the value lists below and printing the results;
 * regenerate the same way when NumPy's behaviour is meant to be followed
 * anew. */
#ifndef EMBER_TEST_UFUNC_NUMPY_DATA_H
#define EMBER_TEST_UFUNC_NUMPY_DATA_H

/* numpy.<ufunc>.resolve_dtypes over every pair of "?bhiqBHIQefdFD" and
 * Python int (n), float (r), complex (x): loop inputs then output, "-" for
 * a TypeError, "" where NumPy answers object (two Python scalars). */
static const struct { const char *name; const char *table; } np_resolve[] = {
    {"add",
     "??? bbb hhh iii qqq BBB HHH III QQQ eee fff ddd FFF DDD qqq ddd DDD bb"
     "b bbb hhh iii qqq hhh iii qqq ddd eee fff ddd FFF DDD bbb ddd DDD hhh "
     "hhh hhh iii qqq hhh iii qqq ddd fff fff ddd FFF DDD hhh ddd DDD iii ii"
     "i iii iii qqq iii iii qqq ddd ddd ddd ddd DDD DDD iii ddd DDD qqq qqq "
     "qqq qqq qqq qqq qqq qqq ddd ddd ddd ddd DDD DDD qqq ddd DDD BBB hhh hh"
     "h iii qqq BBB HHH III QQQ eee fff ddd FFF DDD BBB ddd DDD HHH iii iii "
     "iii qqq HHH HHH III QQQ fff fff ddd FFF DDD HHH ddd DDD III qqq qqq qq"
     "q qqq III III III QQQ ddd ddd ddd DDD DDD III ddd DDD QQQ ddd ddd ddd "
     "ddd QQQ QQQ QQQ QQQ ddd ddd ddd DDD DDD QQQ ddd DDD eee eee fff ddd dd"
     "d eee fff ddd ddd eee fff ddd FFF DDD eee eee FFF fff fff fff ddd ddd "
     "fff fff ddd ddd fff fff ddd FFF DDD fff fff FFF ddd ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD FFF FFF FFF DDD DDD FFF "
     "FFF DDD DDD FFF FFF DDD FFF DDD FFF FFF FFF DDD DDD DDD DDD DDD DDD DD"
     "D DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD qqq bbb hhh iii qqq BBB HHH "
     "III QQQ eee fff ddd FFF DDD qqq ddd DDD ddd ddd ddd ddd ddd ddd ddd dd"
     "d ddd eee fff ddd FFF DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD DDD DDD "
     "DDD FFF FFF DDD FFF DDD DDD DDD DDD"},
    {"subtract",
     "- bbb hhh iii qqq BBB HHH III QQQ eee fff ddd FFF DDD qqq ddd DDD bbb "
     "bbb hhh iii qqq hhh iii qqq ddd eee fff ddd FFF DDD bbb ddd DDD hhh hh"
     "h hhh iii qqq hhh iii qqq ddd fff fff ddd FFF DDD hhh ddd DDD iii iii "
     "iii iii qqq iii iii qqq ddd ddd ddd ddd DDD DDD iii ddd DDD qqq qqq qq"
     "q qqq qqq qqq qqq qqq ddd ddd ddd ddd DDD DDD qqq ddd DDD BBB hhh hhh "
     "iii qqq BBB HHH III QQQ eee fff ddd FFF DDD BBB ddd DDD HHH iii iii ii"
     "i qqq HHH HHH III QQQ fff fff ddd FFF DDD HHH ddd DDD III qqq qqq qqq "
     "qqq III III III QQQ ddd ddd ddd DDD DDD III ddd DDD QQQ ddd ddd ddd dd"
     "d QQQ QQQ QQQ QQQ ddd ddd ddd DDD DDD QQQ ddd DDD eee eee fff ddd ddd "
     "eee fff ddd ddd eee fff ddd FFF DDD eee eee FFF fff fff fff ddd ddd ff"
     "f fff ddd ddd fff fff ddd FFF DDD fff fff FFF ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD FFF FFF FFF DDD DDD FFF FF"
     "F DDD DDD FFF FFF DDD FFF DDD FFF FFF FFF DDD DDD DDD DDD DDD DDD DDD "
     "DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD qqq bbb hhh iii qqq BBB HHH II"
     "I QQQ eee fff ddd FFF DDD qqq ddd DDD ddd ddd ddd ddd ddd ddd ddd ddd "
     "ddd eee fff ddd FFF DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD DDD DDD DD"
     "D FFF FFF DDD FFF DDD DDD DDD DDD"},
    {"multiply",
     "??? bbb hhh iii qqq BBB HHH III QQQ eee fff ddd FFF DDD qqq ddd DDD bb"
     "b bbb hhh iii qqq hhh iii qqq ddd eee fff ddd FFF DDD bbb ddd DDD hhh "
     "hhh hhh iii qqq hhh iii qqq ddd fff fff ddd FFF DDD hhh ddd DDD iii ii"
     "i iii iii qqq iii iii qqq ddd ddd ddd ddd DDD DDD iii ddd DDD qqq qqq "
     "qqq qqq qqq qqq qqq qqq ddd ddd ddd ddd DDD DDD qqq ddd DDD BBB hhh hh"
     "h iii qqq BBB HHH III QQQ eee fff ddd FFF DDD BBB ddd DDD HHH iii iii "
     "iii qqq HHH HHH III QQQ fff fff ddd FFF DDD HHH ddd DDD III qqq qqq qq"
     "q qqq III III III QQQ ddd ddd ddd DDD DDD III ddd DDD QQQ ddd ddd ddd "
     "ddd QQQ QQQ QQQ QQQ ddd ddd ddd DDD DDD QQQ ddd DDD eee eee fff ddd dd"
     "d eee fff ddd ddd eee fff ddd FFF DDD eee eee FFF fff fff fff ddd ddd "
     "fff fff ddd ddd fff fff ddd FFF DDD fff fff FFF ddd ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD FFF FFF FFF DDD DDD FFF "
     "FFF DDD DDD FFF FFF DDD FFF DDD FFF FFF FFF DDD DDD DDD DDD DDD DDD DD"
     "D DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD qqq bbb hhh iii qqq BBB HHH "
     "III QQQ eee fff ddd FFF DDD qqq ddd DDD ddd ddd ddd ddd ddd ddd ddd dd"
     "d ddd eee fff ddd FFF DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD DDD DDD "
     "DDD FFF FFF DDD FFF DDD DDD DDD DDD"},
    {"true_divide",
     "ddd ddd ddd ddd ddd ddd ddd ddd ddd eee fff ddd FFF DDD ddd ddd DDD dd"
     "d ddd ddd ddd ddd ddd ddd ddd ddd eee fff ddd FFF DDD ddd ddd DDD ddd "
     "ddd ddd ddd ddd ddd ddd ddd ddd fff fff ddd FFF DDD ddd ddd DDD ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd "
     "ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd eee fff ddd FFF DDD ddd ddd DDD ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd fff fff ddd FFF DDD ddd ddd DDD ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD eee eee fff ddd dd"
     "d eee fff ddd ddd eee fff ddd FFF DDD eee eee FFF fff fff fff ddd ddd "
     "fff fff ddd ddd fff fff ddd FFF DDD fff fff FFF ddd ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD FFF FFF FFF DDD DDD FFF "
     "FFF DDD DDD FFF FFF DDD FFF DDD FFF FFF FFF DDD DDD DDD DDD DDD DDD DD"
     "D DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD ddd ddd ddd ddd ddd ddd ddd "
     "ddd ddd eee fff ddd FFF DDD ddd ddd DDD ddd ddd ddd ddd ddd ddd ddd dd"
     "d ddd eee fff ddd FFF DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD DDD DDD "
     "DDD FFF FFF DDD FFF DDD DDD DDD DDD"},
    {"floor_divide",
     "bbb bbb hhh iii qqq BBB HHH III QQQ eee fff ddd - - qqq ddd - bbb bbb "
     "hhh iii qqq hhh iii qqq ddd eee fff ddd - - bbb ddd - hhh hhh hhh iii "
     "qqq hhh iii qqq ddd fff fff ddd - - hhh ddd - iii iii iii iii qqq iii "
     "iii qqq ddd ddd ddd ddd - - iii ddd - qqq qqq qqq qqq qqq qqq qqq qqq "
     "ddd ddd ddd ddd - - qqq ddd - BBB hhh hhh iii qqq BBB HHH III QQQ eee "
     "fff ddd - - BBB ddd - HHH iii iii iii qqq HHH HHH III QQQ fff fff ddd "
     "- - HHH ddd - III qqq qqq qqq qqq III III III QQQ ddd ddd ddd - - III "
     "ddd - QQQ ddd ddd ddd ddd QQQ QQQ QQQ QQQ ddd ddd ddd - - QQQ ddd - ee"
     "e eee fff ddd ddd eee fff ddd ddd eee fff ddd - - eee eee - fff fff ff"
     "f ddd ddd fff fff ddd ddd fff fff ddd - - fff fff - ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - qqq bbb hhh iii qqq BBB HHH "
     "III QQQ eee fff ddd - - qqq ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd "
     "eee fff ddd - - ddd ddd - - - - - - - - - - - - - - - - - -"},
    {"remainder",
     "bbb bbb hhh iii qqq BBB HHH III QQQ eee fff ddd - - qqq ddd - bbb bbb "
     "hhh iii qqq hhh iii qqq ddd eee fff ddd - - bbb ddd - hhh hhh hhh iii "
     "qqq hhh iii qqq ddd fff fff ddd - - hhh ddd - iii iii iii iii qqq iii "
     "iii qqq ddd ddd ddd ddd - - iii ddd - qqq qqq qqq qqq qqq qqq qqq qqq "
     "ddd ddd ddd ddd - - qqq ddd - BBB hhh hhh iii qqq BBB HHH III QQQ eee "
     "fff ddd - - BBB ddd - HHH iii iii iii qqq HHH HHH III QQQ fff fff ddd "
     "- - HHH ddd - III qqq qqq qqq qqq III III III QQQ ddd ddd ddd - - III "
     "ddd - QQQ ddd ddd ddd ddd QQQ QQQ QQQ QQQ ddd ddd ddd - - QQQ ddd - ee"
     "e eee fff ddd ddd eee fff ddd ddd eee fff ddd - - eee eee - fff fff ff"
     "f ddd ddd fff fff ddd ddd fff fff ddd - - fff fff - ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - qqq bbb hhh iii qqq BBB HHH "
     "III QQQ eee fff ddd - - qqq ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd "
     "eee fff ddd - - ddd ddd - - - - - - - - - - - - - - - - - -"},
    {"power",
     "bbb bbb hhh iii qqq BBB HHH III QQQ eee fff ddd FFF DDD qqq ddd DDD bb"
     "b bbb hhh iii qqq hhh iii qqq ddd eee fff ddd FFF DDD bbb ddd DDD hhh "
     "hhh hhh iii qqq hhh iii qqq ddd fff fff ddd FFF DDD hhh ddd DDD iii ii"
     "i iii iii qqq iii iii qqq ddd ddd ddd ddd DDD DDD iii ddd DDD qqq qqq "
     "qqq qqq qqq qqq qqq qqq ddd ddd ddd ddd DDD DDD qqq ddd DDD BBB hhh hh"
     "h iii qqq BBB HHH III QQQ eee fff ddd FFF DDD BBB ddd DDD HHH iii iii "
     "iii qqq HHH HHH III QQQ fff fff ddd FFF DDD HHH ddd DDD III qqq qqq qq"
     "q qqq III III III QQQ ddd ddd ddd DDD DDD III ddd DDD QQQ ddd ddd ddd "
     "ddd QQQ QQQ QQQ QQQ ddd ddd ddd DDD DDD QQQ ddd DDD eee eee fff ddd dd"
     "d eee fff ddd ddd eee fff ddd FFF DDD eee eee FFF fff fff fff ddd ddd "
     "fff fff ddd ddd fff fff ddd FFF DDD fff fff FFF ddd ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD FFF FFF FFF DDD DDD FFF "
     "FFF DDD DDD FFF FFF DDD FFF DDD FFF FFF FFF DDD DDD DDD DDD DDD DDD DD"
     "D DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD qqq bbb hhh iii qqq BBB HHH "
     "III QQQ eee fff ddd FFF DDD qqq ddd DDD ddd ddd ddd ddd ddd ddd ddd dd"
     "d ddd eee fff ddd FFF DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD DDD DDD "
     "DDD FFF FFF DDD FFF DDD DDD DDD DDD"},
    {"maximum",
     "??? bbb hhh iii qqq BBB HHH III QQQ eee fff ddd FFF DDD qqq ddd DDD bb"
     "b bbb hhh iii qqq hhh iii qqq ddd eee fff ddd FFF DDD bbb ddd DDD hhh "
     "hhh hhh iii qqq hhh iii qqq ddd fff fff ddd FFF DDD hhh ddd DDD iii ii"
     "i iii iii qqq iii iii qqq ddd ddd ddd ddd DDD DDD iii ddd DDD qqq qqq "
     "qqq qqq qqq qqq qqq qqq ddd ddd ddd ddd DDD DDD qqq ddd DDD BBB hhh hh"
     "h iii qqq BBB HHH III QQQ eee fff ddd FFF DDD BBB ddd DDD HHH iii iii "
     "iii qqq HHH HHH III QQQ fff fff ddd FFF DDD HHH ddd DDD III qqq qqq qq"
     "q qqq III III III QQQ ddd ddd ddd DDD DDD III ddd DDD QQQ ddd ddd ddd "
     "ddd QQQ QQQ QQQ QQQ ddd ddd ddd DDD DDD QQQ ddd DDD eee eee fff ddd dd"
     "d eee fff ddd ddd eee fff ddd FFF DDD eee eee FFF fff fff fff ddd ddd "
     "fff fff ddd ddd fff fff ddd FFF DDD fff fff FFF ddd ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD FFF FFF FFF DDD DDD FFF "
     "FFF DDD DDD FFF FFF DDD FFF DDD FFF FFF FFF DDD DDD DDD DDD DDD DDD DD"
     "D DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD qqq bbb hhh iii qqq BBB HHH "
     "III QQQ eee fff ddd FFF DDD qqq ddd DDD ddd ddd ddd ddd ddd ddd ddd dd"
     "d ddd eee fff ddd FFF DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD DDD DDD "
     "DDD FFF FFF DDD FFF DDD DDD DDD DDD"},
    {"minimum",
     "??? bbb hhh iii qqq BBB HHH III QQQ eee fff ddd FFF DDD qqq ddd DDD bb"
     "b bbb hhh iii qqq hhh iii qqq ddd eee fff ddd FFF DDD bbb ddd DDD hhh "
     "hhh hhh iii qqq hhh iii qqq ddd fff fff ddd FFF DDD hhh ddd DDD iii ii"
     "i iii iii qqq iii iii qqq ddd ddd ddd ddd DDD DDD iii ddd DDD qqq qqq "
     "qqq qqq qqq qqq qqq qqq ddd ddd ddd ddd DDD DDD qqq ddd DDD BBB hhh hh"
     "h iii qqq BBB HHH III QQQ eee fff ddd FFF DDD BBB ddd DDD HHH iii iii "
     "iii qqq HHH HHH III QQQ fff fff ddd FFF DDD HHH ddd DDD III qqq qqq qq"
     "q qqq III III III QQQ ddd ddd ddd DDD DDD III ddd DDD QQQ ddd ddd ddd "
     "ddd QQQ QQQ QQQ QQQ ddd ddd ddd DDD DDD QQQ ddd DDD eee eee fff ddd dd"
     "d eee fff ddd ddd eee fff ddd FFF DDD eee eee FFF fff fff fff ddd ddd "
     "fff fff ddd ddd fff fff ddd FFF DDD fff fff FFF ddd ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD FFF FFF FFF DDD DDD FFF "
     "FFF DDD DDD FFF FFF DDD FFF DDD FFF FFF FFF DDD DDD DDD DDD DDD DDD DD"
     "D DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD qqq bbb hhh iii qqq BBB HHH "
     "III QQQ eee fff ddd FFF DDD qqq ddd DDD ddd ddd ddd ddd ddd ddd ddd dd"
     "d ddd eee fff ddd FFF DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD DDD DDD "
     "DDD FFF FFF DDD FFF DDD DDD DDD DDD"},
    {"fmax",
     "??? bbb hhh iii qqq BBB HHH III QQQ eee fff ddd FFF DDD qqq ddd DDD bb"
     "b bbb hhh iii qqq hhh iii qqq ddd eee fff ddd FFF DDD bbb ddd DDD hhh "
     "hhh hhh iii qqq hhh iii qqq ddd fff fff ddd FFF DDD hhh ddd DDD iii ii"
     "i iii iii qqq iii iii qqq ddd ddd ddd ddd DDD DDD iii ddd DDD qqq qqq "
     "qqq qqq qqq qqq qqq qqq ddd ddd ddd ddd DDD DDD qqq ddd DDD BBB hhh hh"
     "h iii qqq BBB HHH III QQQ eee fff ddd FFF DDD BBB ddd DDD HHH iii iii "
     "iii qqq HHH HHH III QQQ fff fff ddd FFF DDD HHH ddd DDD III qqq qqq qq"
     "q qqq III III III QQQ ddd ddd ddd DDD DDD III ddd DDD QQQ ddd ddd ddd "
     "ddd QQQ QQQ QQQ QQQ ddd ddd ddd DDD DDD QQQ ddd DDD eee eee fff ddd dd"
     "d eee fff ddd ddd eee fff ddd FFF DDD eee eee FFF fff fff fff ddd ddd "
     "fff fff ddd ddd fff fff ddd FFF DDD fff fff FFF ddd ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD FFF FFF FFF DDD DDD FFF "
     "FFF DDD DDD FFF FFF DDD FFF DDD FFF FFF FFF DDD DDD DDD DDD DDD DDD DD"
     "D DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD qqq bbb hhh iii qqq BBB HHH "
     "III QQQ eee fff ddd FFF DDD qqq ddd DDD ddd ddd ddd ddd ddd ddd ddd dd"
     "d ddd eee fff ddd FFF DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD DDD DDD "
     "DDD FFF FFF DDD FFF DDD DDD DDD DDD"},
    {"fmin",
     "??? bbb hhh iii qqq BBB HHH III QQQ eee fff ddd FFF DDD qqq ddd DDD bb"
     "b bbb hhh iii qqq hhh iii qqq ddd eee fff ddd FFF DDD bbb ddd DDD hhh "
     "hhh hhh iii qqq hhh iii qqq ddd fff fff ddd FFF DDD hhh ddd DDD iii ii"
     "i iii iii qqq iii iii qqq ddd ddd ddd ddd DDD DDD iii ddd DDD qqq qqq "
     "qqq qqq qqq qqq qqq qqq ddd ddd ddd ddd DDD DDD qqq ddd DDD BBB hhh hh"
     "h iii qqq BBB HHH III QQQ eee fff ddd FFF DDD BBB ddd DDD HHH iii iii "
     "iii qqq HHH HHH III QQQ fff fff ddd FFF DDD HHH ddd DDD III qqq qqq qq"
     "q qqq III III III QQQ ddd ddd ddd DDD DDD III ddd DDD QQQ ddd ddd ddd "
     "ddd QQQ QQQ QQQ QQQ ddd ddd ddd DDD DDD QQQ ddd DDD eee eee fff ddd dd"
     "d eee fff ddd ddd eee fff ddd FFF DDD eee eee FFF fff fff fff ddd ddd "
     "fff fff ddd ddd fff fff ddd FFF DDD fff fff FFF ddd ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD FFF FFF FFF DDD DDD FFF "
     "FFF DDD DDD FFF FFF DDD FFF DDD FFF FFF FFF DDD DDD DDD DDD DDD DDD DD"
     "D DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD qqq bbb hhh iii qqq BBB HHH "
     "III QQQ eee fff ddd FFF DDD qqq ddd DDD ddd ddd ddd ddd ddd ddd ddd dd"
     "d ddd eee fff ddd FFF DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD DDD DDD "
     "DDD FFF FFF DDD FFF DDD DDD DDD DDD"},
    {"equal",
     "??? bb? hh? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? qq? dd? DD? bb"
     "? bb? hh? ii? qq? hh? ii? qq? qQ? ee? ff? dd? FF? DD? bb? dd? DD? hh? "
     "hh? hh? ii? qq? hh? ii? qq? qQ? ff? ff? dd? FF? DD? hh? dd? DD? ii? ii"
     "? ii? ii? qq? ii? ii? qq? qQ? dd? dd? dd? DD? DD? ii? dd? DD? qq? qq? "
     "qq? qq? qq? qq? qq? qq? qQ? dd? dd? dd? DD? DD? qq? dd? DD? BB? hh? hh"
     "? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? BB? dd? DD? HH? ii? ii? "
     "ii? qq? HH? HH? II? QQ? ff? ff? dd? FF? DD? HH? dd? DD? II? qq? qq? qq"
     "? qq? II? II? II? QQ? dd? dd? dd? DD? DD? II? dd? DD? QQ? Qq? Qq? Qq? "
     "Qq? QQ? QQ? QQ? QQ? dd? dd? dd? DD? DD? QQ? dd? DD? ee? ee? ff? dd? dd"
     "? ee? ff? dd? dd? ee? ff? dd? FF? DD? ee? ee? FF? ff? ff? ff? dd? dd? "
     "ff? ff? dd? dd? ff? ff? dd? FF? DD? ff? ff? FF? dd? dd? dd? dd? dd? dd"
     "? dd? dd? dd? dd? dd? dd? DD? DD? dd? dd? DD? FF? FF? FF? DD? DD? FF? "
     "FF? DD? DD? FF? FF? DD? FF? DD? FF? FF? FF? DD? DD? DD? DD? DD? DD? DD"
     "? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD? qq? bb? hh? ii? qq? BB? HH? "
     "II? QQ? ee? ff? dd? FF? DD? . dd? DD? dd? dd? dd? dd? dd? dd? dd? dd? "
     "dd? ee? ff? dd? FF? DD? dd? dd? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD"
     "? FF? FF? DD? FF? DD? DD? DD? DD?"},
    {"not_equal",
     "??? bb? hh? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? qq? dd? DD? bb"
     "? bb? hh? ii? qq? hh? ii? qq? qQ? ee? ff? dd? FF? DD? bb? dd? DD? hh? "
     "hh? hh? ii? qq? hh? ii? qq? qQ? ff? ff? dd? FF? DD? hh? dd? DD? ii? ii"
     "? ii? ii? qq? ii? ii? qq? qQ? dd? dd? dd? DD? DD? ii? dd? DD? qq? qq? "
     "qq? qq? qq? qq? qq? qq? qQ? dd? dd? dd? DD? DD? qq? dd? DD? BB? hh? hh"
     "? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? BB? dd? DD? HH? ii? ii? "
     "ii? qq? HH? HH? II? QQ? ff? ff? dd? FF? DD? HH? dd? DD? II? qq? qq? qq"
     "? qq? II? II? II? QQ? dd? dd? dd? DD? DD? II? dd? DD? QQ? Qq? Qq? Qq? "
     "Qq? QQ? QQ? QQ? QQ? dd? dd? dd? DD? DD? QQ? dd? DD? ee? ee? ff? dd? dd"
     "? ee? ff? dd? dd? ee? ff? dd? FF? DD? ee? ee? FF? ff? ff? ff? dd? dd? "
     "ff? ff? dd? dd? ff? ff? dd? FF? DD? ff? ff? FF? dd? dd? dd? dd? dd? dd"
     "? dd? dd? dd? dd? dd? dd? DD? DD? dd? dd? DD? FF? FF? FF? DD? DD? FF? "
     "FF? DD? DD? FF? FF? DD? FF? DD? FF? FF? FF? DD? DD? DD? DD? DD? DD? DD"
     "? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD? qq? bb? hh? ii? qq? BB? HH? "
     "II? QQ? ee? ff? dd? FF? DD? . dd? DD? dd? dd? dd? dd? dd? dd? dd? dd? "
     "dd? ee? ff? dd? FF? DD? dd? dd? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD"
     "? FF? FF? DD? FF? DD? DD? DD? DD?"},
    {"less",
     "??? bb? hh? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? qq? dd? DD? bb"
     "? bb? hh? ii? qq? hh? ii? qq? qQ? ee? ff? dd? FF? DD? bb? dd? DD? hh? "
     "hh? hh? ii? qq? hh? ii? qq? qQ? ff? ff? dd? FF? DD? hh? dd? DD? ii? ii"
     "? ii? ii? qq? ii? ii? qq? qQ? dd? dd? dd? DD? DD? ii? dd? DD? qq? qq? "
     "qq? qq? qq? qq? qq? qq? qQ? dd? dd? dd? DD? DD? qq? dd? DD? BB? hh? hh"
     "? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? BB? dd? DD? HH? ii? ii? "
     "ii? qq? HH? HH? II? QQ? ff? ff? dd? FF? DD? HH? dd? DD? II? qq? qq? qq"
     "? qq? II? II? II? QQ? dd? dd? dd? DD? DD? II? dd? DD? QQ? Qq? Qq? Qq? "
     "Qq? QQ? QQ? QQ? QQ? dd? dd? dd? DD? DD? QQ? dd? DD? ee? ee? ff? dd? dd"
     "? ee? ff? dd? dd? ee? ff? dd? FF? DD? ee? ee? FF? ff? ff? ff? dd? dd? "
     "ff? ff? dd? dd? ff? ff? dd? FF? DD? ff? ff? FF? dd? dd? dd? dd? dd? dd"
     "? dd? dd? dd? dd? dd? dd? DD? DD? dd? dd? DD? FF? FF? FF? DD? DD? FF? "
     "FF? DD? DD? FF? FF? DD? FF? DD? FF? FF? FF? DD? DD? DD? DD? DD? DD? DD"
     "? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD? qq? bb? hh? ii? qq? BB? HH? "
     "II? QQ? ee? ff? dd? FF? DD? . dd? DD? dd? dd? dd? dd? dd? dd? dd? dd? "
     "dd? ee? ff? dd? FF? DD? dd? dd? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD"
     "? FF? FF? DD? FF? DD? DD? DD? DD?"},
    {"less_equal",
     "??? bb? hh? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? qq? dd? DD? bb"
     "? bb? hh? ii? qq? hh? ii? qq? qQ? ee? ff? dd? FF? DD? bb? dd? DD? hh? "
     "hh? hh? ii? qq? hh? ii? qq? qQ? ff? ff? dd? FF? DD? hh? dd? DD? ii? ii"
     "? ii? ii? qq? ii? ii? qq? qQ? dd? dd? dd? DD? DD? ii? dd? DD? qq? qq? "
     "qq? qq? qq? qq? qq? qq? qQ? dd? dd? dd? DD? DD? qq? dd? DD? BB? hh? hh"
     "? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? BB? dd? DD? HH? ii? ii? "
     "ii? qq? HH? HH? II? QQ? ff? ff? dd? FF? DD? HH? dd? DD? II? qq? qq? qq"
     "? qq? II? II? II? QQ? dd? dd? dd? DD? DD? II? dd? DD? QQ? Qq? Qq? Qq? "
     "Qq? QQ? QQ? QQ? QQ? dd? dd? dd? DD? DD? QQ? dd? DD? ee? ee? ff? dd? dd"
     "? ee? ff? dd? dd? ee? ff? dd? FF? DD? ee? ee? FF? ff? ff? ff? dd? dd? "
     "ff? ff? dd? dd? ff? ff? dd? FF? DD? ff? ff? FF? dd? dd? dd? dd? dd? dd"
     "? dd? dd? dd? dd? dd? dd? DD? DD? dd? dd? DD? FF? FF? FF? DD? DD? FF? "
     "FF? DD? DD? FF? FF? DD? FF? DD? FF? FF? FF? DD? DD? DD? DD? DD? DD? DD"
     "? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD? qq? bb? hh? ii? qq? BB? HH? "
     "II? QQ? ee? ff? dd? FF? DD? . dd? DD? dd? dd? dd? dd? dd? dd? dd? dd? "
     "dd? ee? ff? dd? FF? DD? dd? dd? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD"
     "? FF? FF? DD? FF? DD? DD? DD? DD?"},
    {"greater",
     "??? bb? hh? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? qq? dd? DD? bb"
     "? bb? hh? ii? qq? hh? ii? qq? qQ? ee? ff? dd? FF? DD? bb? dd? DD? hh? "
     "hh? hh? ii? qq? hh? ii? qq? qQ? ff? ff? dd? FF? DD? hh? dd? DD? ii? ii"
     "? ii? ii? qq? ii? ii? qq? qQ? dd? dd? dd? DD? DD? ii? dd? DD? qq? qq? "
     "qq? qq? qq? qq? qq? qq? qQ? dd? dd? dd? DD? DD? qq? dd? DD? BB? hh? hh"
     "? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? BB? dd? DD? HH? ii? ii? "
     "ii? qq? HH? HH? II? QQ? ff? ff? dd? FF? DD? HH? dd? DD? II? qq? qq? qq"
     "? qq? II? II? II? QQ? dd? dd? dd? DD? DD? II? dd? DD? QQ? Qq? Qq? Qq? "
     "Qq? QQ? QQ? QQ? QQ? dd? dd? dd? DD? DD? QQ? dd? DD? ee? ee? ff? dd? dd"
     "? ee? ff? dd? dd? ee? ff? dd? FF? DD? ee? ee? FF? ff? ff? ff? dd? dd? "
     "ff? ff? dd? dd? ff? ff? dd? FF? DD? ff? ff? FF? dd? dd? dd? dd? dd? dd"
     "? dd? dd? dd? dd? dd? dd? DD? DD? dd? dd? DD? FF? FF? FF? DD? DD? FF? "
     "FF? DD? DD? FF? FF? DD? FF? DD? FF? FF? FF? DD? DD? DD? DD? DD? DD? DD"
     "? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD? qq? bb? hh? ii? qq? BB? HH? "
     "II? QQ? ee? ff? dd? FF? DD? . dd? DD? dd? dd? dd? dd? dd? dd? dd? dd? "
     "dd? ee? ff? dd? FF? DD? dd? dd? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD"
     "? FF? FF? DD? FF? DD? DD? DD? DD?"},
    {"greater_equal",
     "??? bb? hh? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? qq? dd? DD? bb"
     "? bb? hh? ii? qq? hh? ii? qq? qQ? ee? ff? dd? FF? DD? bb? dd? DD? hh? "
     "hh? hh? ii? qq? hh? ii? qq? qQ? ff? ff? dd? FF? DD? hh? dd? DD? ii? ii"
     "? ii? ii? qq? ii? ii? qq? qQ? dd? dd? dd? DD? DD? ii? dd? DD? qq? qq? "
     "qq? qq? qq? qq? qq? qq? qQ? dd? dd? dd? DD? DD? qq? dd? DD? BB? hh? hh"
     "? ii? qq? BB? HH? II? QQ? ee? ff? dd? FF? DD? BB? dd? DD? HH? ii? ii? "
     "ii? qq? HH? HH? II? QQ? ff? ff? dd? FF? DD? HH? dd? DD? II? qq? qq? qq"
     "? qq? II? II? II? QQ? dd? dd? dd? DD? DD? II? dd? DD? QQ? Qq? Qq? Qq? "
     "Qq? QQ? QQ? QQ? QQ? dd? dd? dd? DD? DD? QQ? dd? DD? ee? ee? ff? dd? dd"
     "? ee? ff? dd? dd? ee? ff? dd? FF? DD? ee? ee? FF? ff? ff? ff? dd? dd? "
     "ff? ff? dd? dd? ff? ff? dd? FF? DD? ff? ff? FF? dd? dd? dd? dd? dd? dd"
     "? dd? dd? dd? dd? dd? dd? DD? DD? dd? dd? DD? FF? FF? FF? DD? DD? FF? "
     "FF? DD? DD? FF? FF? DD? FF? DD? FF? FF? FF? DD? DD? DD? DD? DD? DD? DD"
     "? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD? qq? bb? hh? ii? qq? BB? HH? "
     "II? QQ? ee? ff? dd? FF? DD? . dd? DD? dd? dd? dd? dd? dd? dd? dd? dd? "
     "dd? ee? ff? dd? FF? DD? dd? dd? DD? DD? DD? DD? DD? DD? DD? DD? DD? DD"
     "? FF? FF? DD? FF? DD? DD? DD? DD?"},
    {"logical_and",
     "??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? bb? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? hh? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ii? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? qq? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? BB? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? HH? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? II? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? QQ? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ee? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ff? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ??? dd? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ??? FF? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ??? ??? DD? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ??? ??? ??? ???"},
    {"logical_or",
     "??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? bb? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? hh? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ii? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? qq? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? BB? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? HH? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? II? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? QQ? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ee? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ff? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ??? dd? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ??? FF? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ??? ??? DD? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ??? ??? ??? ???"},
    {"logical_xor",
     "??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? bb? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? hh? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ii? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? qq? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? BB? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? HH? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? II? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? QQ? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ee? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ff? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ??? dd? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ??? FF? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ??? ??? DD? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??"
     "? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? ??? "
     "??? ??? ??? ??? ??? ??? ??? ??? ???"},
    {"bitwise_and",
     "??? bbb hhh iii qqq BBB HHH III QQQ - - - - - qqq - - bbb bbb hhh iii "
     "qqq hhh iii qqq - - - - - - bbb - - hhh hhh hhh iii qqq hhh iii qqq - "
     "- - - - - hhh - - iii iii iii iii qqq iii iii qqq - - - - - - iii - - "
     "qqq qqq qqq qqq qqq qqq qqq qqq - - - - - - qqq - - BBB hhh hhh iii qq"
     "q BBB HHH III QQQ - - - - - BBB - - HHH iii iii iii qqq HHH HHH III QQ"
     "Q - - - - - HHH - - III qqq qqq qqq qqq III III III QQQ - - - - - III "
     "- - QQQ - - - - QQQ QQQ QQQ QQQ - - - - - QQQ - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - "
     "- - - - - qqq bbb hhh iii qqq BBB HHH III QQQ - - - - - qqq - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -"},
    {"bitwise_or",
     "??? bbb hhh iii qqq BBB HHH III QQQ - - - - - qqq - - bbb bbb hhh iii "
     "qqq hhh iii qqq - - - - - - bbb - - hhh hhh hhh iii qqq hhh iii qqq - "
     "- - - - - hhh - - iii iii iii iii qqq iii iii qqq - - - - - - iii - - "
     "qqq qqq qqq qqq qqq qqq qqq qqq - - - - - - qqq - - BBB hhh hhh iii qq"
     "q BBB HHH III QQQ - - - - - BBB - - HHH iii iii iii qqq HHH HHH III QQ"
     "Q - - - - - HHH - - III qqq qqq qqq qqq III III III QQQ - - - - - III "
     "- - QQQ - - - - QQQ QQQ QQQ QQQ - - - - - QQQ - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - "
     "- - - - - qqq bbb hhh iii qqq BBB HHH III QQQ - - - - - qqq - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -"},
    {"bitwise_xor",
     "??? bbb hhh iii qqq BBB HHH III QQQ - - - - - qqq - - bbb bbb hhh iii "
     "qqq hhh iii qqq - - - - - - bbb - - hhh hhh hhh iii qqq hhh iii qqq - "
     "- - - - - hhh - - iii iii iii iii qqq iii iii qqq - - - - - - iii - - "
     "qqq qqq qqq qqq qqq qqq qqq qqq - - - - - - qqq - - BBB hhh hhh iii qq"
     "q BBB HHH III QQQ - - - - - BBB - - HHH iii iii iii qqq HHH HHH III QQ"
     "Q - - - - - HHH - - III qqq qqq qqq qqq III III III QQQ - - - - - III "
     "- - QQQ - - - - QQQ QQQ QQQ QQQ - - - - - QQQ - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - "
     "- - - - - qqq bbb hhh iii qqq BBB HHH III QQQ - - - - - qqq - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -"},
    {"left_shift",
     "bbb bbb hhh iii qqq BBB HHH III QQQ - - - - - qqq - - bbb bbb hhh iii "
     "qqq hhh iii qqq - - - - - - bbb - - hhh hhh hhh iii qqq hhh iii qqq - "
     "- - - - - hhh - - iii iii iii iii qqq iii iii qqq - - - - - - iii - - "
     "qqq qqq qqq qqq qqq qqq qqq qqq - - - - - - qqq - - BBB hhh hhh iii qq"
     "q BBB HHH III QQQ - - - - - BBB - - HHH iii iii iii qqq HHH HHH III QQ"
     "Q - - - - - HHH - - III qqq qqq qqq qqq III III III QQQ - - - - - III "
     "- - QQQ - - - - QQQ QQQ QQQ QQQ - - - - - QQQ - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - "
     "- - - - - qqq bbb hhh iii qqq BBB HHH III QQQ - - - - - qqq - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -"},
    {"right_shift",
     "bbb bbb hhh iii qqq BBB HHH III QQQ - - - - - qqq - - bbb bbb hhh iii "
     "qqq hhh iii qqq - - - - - - bbb - - hhh hhh hhh iii qqq hhh iii qqq - "
     "- - - - - hhh - - iii iii iii iii qqq iii iii qqq - - - - - - iii - - "
     "qqq qqq qqq qqq qqq qqq qqq qqq - - - - - - qqq - - BBB hhh hhh iii qq"
     "q BBB HHH III QQQ - - - - - BBB - - HHH iii iii iii qqq HHH HHH III QQ"
     "Q - - - - - HHH - - III qqq qqq qqq qqq III III III QQQ - - - - - III "
     "- - QQQ - - - - QQQ QQQ QQQ QQQ - - - - - QQQ - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - "
     "- - - - - qqq bbb hhh iii qqq BBB HHH III QQQ - - - - - qqq - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -"},
    {"arctan2",
     "eee eee fff ddd ddd eee fff ddd ddd eee fff ddd - - ddd ddd - eee eee "
     "fff ddd ddd eee fff ddd ddd eee fff ddd - - eee ddd - fff fff fff ddd "
     "ddd fff fff ddd ddd fff fff ddd - - fff ddd - ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd - - ddd ddd - eee eee fff ddd ddd eee fff ddd ddd eee "
     "fff ddd - - eee ddd - fff fff fff ddd ddd fff fff ddd ddd fff fff ddd "
     "- - fff ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd "
     "ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - ee"
     "e eee fff ddd ddd eee fff ddd ddd eee fff ddd - - eee eee - fff fff ff"
     "f ddd ddd fff fff ddd ddd fff fff ddd - - fff fff - ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - ddd eee fff ddd ddd eee fff "
     "ddd ddd eee fff ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd "
     "eee fff ddd - - ddd ddd - - - - - - - - - - - - - - - - - -"},
    {"hypot",
     "eee eee fff ddd ddd eee fff ddd ddd eee fff ddd - - ddd ddd - eee eee "
     "fff ddd ddd eee fff ddd ddd eee fff ddd - - eee ddd - fff fff fff ddd "
     "ddd fff fff ddd ddd fff fff ddd - - fff ddd - ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd - - ddd ddd - eee eee fff ddd ddd eee fff ddd ddd eee "
     "fff ddd - - eee ddd - fff fff fff ddd ddd fff fff ddd ddd fff fff ddd "
     "- - fff ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd "
     "ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - ee"
     "e eee fff ddd ddd eee fff ddd ddd eee fff ddd - - eee eee - fff fff ff"
     "f ddd ddd fff fff ddd ddd fff fff ddd - - fff fff - ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - ddd eee fff ddd ddd eee fff "
     "ddd ddd eee fff ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd "
     "eee fff ddd - - ddd ddd - - - - - - - - - - - - - - - - - -"},
    {"copysign",
     "eee eee fff ddd ddd eee fff ddd ddd eee fff ddd - - ddd ddd - eee eee "
     "fff ddd ddd eee fff ddd ddd eee fff ddd - - eee ddd - fff fff fff ddd "
     "ddd fff fff ddd ddd fff fff ddd - - fff ddd - ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd - - ddd ddd - eee eee fff ddd ddd eee fff ddd ddd eee "
     "fff ddd - - eee ddd - fff fff fff ddd ddd fff fff ddd ddd fff fff ddd "
     "- - fff ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd "
     "ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - ee"
     "e eee fff ddd ddd eee fff ddd ddd eee fff ddd - - eee eee - fff fff ff"
     "f ddd ddd fff fff ddd ddd fff fff ddd - - fff fff - ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - ddd eee fff ddd ddd eee fff "
     "ddd ddd eee fff ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd "
     "eee fff ddd - - ddd ddd - - - - - - - - - - - - - - - - - -"},
    {"nextafter",
     "eee eee fff ddd ddd eee fff ddd ddd eee fff ddd - - ddd ddd - eee eee "
     "fff ddd ddd eee fff ddd ddd eee fff ddd - - eee ddd - fff fff fff ddd "
     "ddd fff fff ddd ddd fff fff ddd - - fff ddd - ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd - - ddd ddd - eee eee fff ddd ddd eee fff ddd ddd eee "
     "fff ddd - - eee ddd - fff fff fff ddd ddd fff fff ddd ddd fff fff ddd "
     "- - fff ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd "
     "ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - ee"
     "e eee fff ddd ddd eee fff ddd ddd eee fff ddd - - eee eee - fff fff ff"
     "f ddd ddd fff fff ddd ddd fff fff ddd - - fff fff - ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - ddd eee fff ddd ddd eee fff "
     "ddd ddd eee fff ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd "
     "eee fff ddd - - ddd ddd - - - - - - - - - - - - - - - - - -"},
    {"logaddexp",
     "eee eee fff ddd ddd eee fff ddd ddd eee fff ddd - - ddd ddd - eee eee "
     "fff ddd ddd eee fff ddd ddd eee fff ddd - - eee ddd - fff fff fff ddd "
     "ddd fff fff ddd ddd fff fff ddd - - fff ddd - ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd - - ddd ddd - eee eee fff ddd ddd eee fff ddd ddd eee "
     "fff ddd - - eee ddd - fff fff fff ddd ddd fff fff ddd ddd fff fff ddd "
     "- - fff ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd "
     "ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - ee"
     "e eee fff ddd ddd eee fff ddd ddd eee fff ddd - - eee eee - fff fff ff"
     "f ddd ddd fff fff ddd ddd fff fff ddd - - fff fff - ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - ddd eee fff ddd ddd eee fff "
     "ddd ddd eee fff ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd "
     "eee fff ddd - - ddd ddd - - - - - - - - - - - - - - - - - -"},
    {"logaddexp2",
     "eee eee fff ddd ddd eee fff ddd ddd eee fff ddd - - ddd ddd - eee eee "
     "fff ddd ddd eee fff ddd ddd eee fff ddd - - eee ddd - fff fff fff ddd "
     "ddd fff fff ddd ddd fff fff ddd - - fff ddd - ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd - - ddd ddd - eee eee fff ddd ddd eee fff ddd ddd eee "
     "fff ddd - - eee ddd - fff fff fff ddd ddd fff fff ddd ddd fff fff ddd "
     "- - fff ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd "
     "ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - ee"
     "e eee fff ddd ddd eee fff ddd ddd eee fff ddd - - eee eee - fff fff ff"
     "f ddd ddd fff fff ddd ddd fff fff ddd - - fff fff - ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - ddd eee fff ddd ddd eee fff "
     "ddd ddd eee fff ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd "
     "eee fff ddd - - ddd ddd - - - - - - - - - - - - - - - - - -"},
    {"float_power",
     "ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD dd"
     "d ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd "
     "ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd "
     "ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD "
     "DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD DD"
     "D DDD DDD DDD DDD DDD DDD DDD DDD DDD DDD ddd ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd DDD DDD ddd ddd DDD ddd ddd ddd ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd DDD DDD ddd ddd DDD DDD DDD DDD DDD DDD DDD DDD DDD "
     "DDD DDD DDD DDD DDD DDD DDD DDD DDD"},
    {"heaviside",
     "eee eee fff ddd ddd eee fff ddd ddd eee fff ddd - - ddd ddd - eee eee "
     "fff ddd ddd eee fff ddd ddd eee fff ddd - - eee ddd - fff fff fff ddd "
     "ddd fff fff ddd ddd fff fff ddd - - fff ddd - ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd ddd ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd "
     "ddd ddd ddd ddd - - ddd ddd - eee eee fff ddd ddd eee fff ddd ddd eee "
     "fff ddd - - eee ddd - fff fff fff ddd ddd fff fff ddd ddd fff fff ddd "
     "- - fff ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd "
     "ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - ee"
     "e eee fff ddd ddd eee fff ddd ddd eee fff ddd - - eee eee - fff fff ff"
     "f ddd ddd fff fff ddd ddd fff fff ddd - - fff fff - ddd ddd ddd ddd dd"
     "d ddd ddd ddd ddd ddd ddd ddd - - ddd ddd - - - - - - - - - - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - ddd eee fff ddd ddd eee fff "
     "ddd ddd eee fff ddd - - ddd ddd - ddd ddd ddd ddd ddd ddd ddd ddd ddd "
     "eee fff ddd - - ddd ddd - - - - - - - - - - - - - - - - - -"},
    {"ldexp",
     "eie eie eie eie eqe eie eie eqe - - - - - - eqe - - eie eie eie eie eq"
     "e eie eie eqe - - - - - - eie - - fif fif fif fif fqf fif fif fqf - - "
     "- - - - fif - - did did did did dqd did did dqd - - - - - - did - - di"
     "d did did did dqd did did dqd - - - - - - did - - eie eie eie eie eqe "
     "eie eie eqe - - - - - - eie - - fif fif fif fif fqf fif fif fqf - - - "
     "- - - fif - - did did did did dqd did did dqd - - - - - - did - - did "
     "did did did dqd did did dqd - - - - - - did - - eie eie eie eie eqe ei"
     "e eie eqe - - - - - - eie - - fif fif fif fif fqf fif fif fqf - - - - "
     "- - fif - - did did did did dqd did did dqd - - - - - - did - - - - - "
     "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - did eie "
     "eie eie eqe eie eie eqe - - - - - - dqd - - did did did did dqd did di"
     "d dqd - - - - - - dqd - - - - - - - - - - - - - - - - - - -"},
    {"negative",
     "- bb hh ii qq BB HH II QQ ee ff dd FF DD qq dd DD"},
    {"positive",
     "- bb hh ii qq BB HH II QQ ee ff dd FF DD qq dd DD"},
    {"absolute",
     "?? bb hh ii qq BB HH II QQ ee ff dd Ff Dd qq dd Dd"},
    {"sign",
     "- bb hh ii qq BB HH II QQ ee ff dd FF DD qq dd DD"},
    {"square",
     "bb bb hh ii qq BB HH II QQ ee ff dd FF DD qq dd DD"},
    {"sqrt",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"cbrt",
     "ee ee ff dd dd ee ff dd dd ee ff dd - - dd dd -"},
    {"reciprocal",
     "bb bb hh ii qq BB HH II QQ ee ff dd FF DD qq dd DD"},
    {"exp",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"exp2",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"expm1",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"log",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"log2",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"log10",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"log1p",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"sin",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"cos",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"tan",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"arcsin",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"arccos",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"arctan",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"sinh",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"cosh",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"tanh",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"arcsinh",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"arccosh",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"arctanh",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"floor",
     "?? bb hh ii qq BB HH II QQ ee ff dd - - qq dd -"},
    {"ceil",
     "?? bb hh ii qq BB HH II QQ ee ff dd - - qq dd -"},
    {"trunc",
     "?? bb hh ii qq BB HH II QQ ee ff dd - - qq dd -"},
    {"rint",
     "ee ee ff dd dd ee ff dd dd ee ff dd FF DD dd dd DD"},
    {"isnan",
     "?? b? h? i? q? B? H? I? Q? e? f? d? F? D? q? d? D?"},
    {"isinf",
     "?? b? h? i? q? B? H? I? Q? e? f? d? F? D? q? d? D?"},
    {"isfinite",
     "?? b? h? i? q? B? H? I? Q? e? f? d? F? D? q? d? D?"},
    {"signbit",
     "e? e? f? d? d? e? f? d? d? e? f? d? - - d? d? -"},
    {"logical_not",
     "?? b? h? i? q? B? H? I? Q? e? f? d? F? D? q? d? D?"},
    {"invert",
     "?? bb hh ii qq BB HH II QQ - - - - - qq - -"},
    {"conjugate",
     "bb bb hh ii qq BB HH II QQ ee ff dd FF DD qq dd DD"},
};
/* numpy.promote_types, can_cast safe and same_kind for every pair of
 * "?bhiqBHIQefdFD" (row: first argument). */
static const char *const np_promote[] = {
    "?bhiqBHIQefdFD",
    "bbhiqhiqdefdFD",
    "hhhiqhiqdffdFD",
    "iiiiqiiqddddDD",
    "qqqqqqqqddddDD",
    "BhhiqBHIQefdFD",
    "HiiiqHHIQffdFD",
    "IqqqqIIIQdddDD",
    "QddddQQQQdddDD",
    "eefddefddefdFD",
    "fffddffddffdFD",
    "ddddddddddddDD",
    "FFFDDFFDDFFDFD",
    "DDDDDDDDDDDDDD"};
static const char *const np_safe[] = {
    "11111111111111",
    "01111000011111",
    "00111000001111",
    "00011000000101",
    "00001000000101",
    "00111111111111",
    "00011011101111",
    "00001001100101",
    "00000000100101",
    "00000000011111",
    "00000000001111",
    "00000000000101",
    "00000000000011",
    "00000000000001"};
static const char *const np_same_kind[] = {
    "11111111111111",
    "01111000011111",
    "01111000011111",
    "01111000011111",
    "01111000011111",
    "01111111111111",
    "01111111111111",
    "01111111111111",
    "01111111111111",
    "00000000011111",
    "00000000011111",
    "00000000011111",
    "00000000000011",
    "00000000000011"};
static const double ef64_bin_vals[9] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0};
static const double ef64_un_vals[14] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.75, 1e+300};
static const edge_row ef64_bin[] = {
    {"true_divide", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, NAN, NAN, NAN, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, NAN, 0.0, -0.0, NAN, NAN, 0.0, -0.0, 0.0, -0.0, NAN, -0.0, 0.0, NAN, NAN, -0.0, 0.0, -0.0, 0.0, NAN, 0.0, -0.0, INFINITY, -INFINITY, 1.0, -1.0, 0.4, -0.14285714285714285, NAN, -0.0, 0.0, -INFINITY, INFINITY, -1.0, 1.0, -0.4, 0.14285714285714285, NAN, 0.0, -0.0, INFINITY, -INFINITY, 2.5, -2.5, 1.0, -0.35714285714285715, NAN, -0.0, 0.0, -INFINITY, INFINITY, -7.0, 7.0, -2.8, 1.0}},
    {"floor_divide", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, -INFINITY, NAN, NAN, NAN, NAN, NAN, NAN, NAN, -INFINITY, INFINITY, NAN, NAN, NAN, NAN, NAN, 0.0, -0.0, NAN, NAN, 0.0, -0.0, 0.0, -0.0, NAN, -0.0, 0.0, NAN, NAN, -0.0, 0.0, -0.0, 0.0, NAN, 0.0, -1.0, INFINITY, -INFINITY, 1.0, -1.0, 0.0, -1.0, NAN, -1.0, 0.0, -INFINITY, INFINITY, -1.0, 1.0, -1.0, 0.0, NAN, 0.0, -1.0, INFINITY, -INFINITY, 2.0, -3.0, 1.0, -1.0, NAN, -1.0, 0.0, -INFINITY, INFINITY, -7.0, 7.0, -3.0, 1.0}},
    {"remainder", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0.0, -0.0, NAN, NAN, 0.0, -0.0, 0.0, -0.0, NAN, 0.0, -0.0, NAN, NAN, 0.0, -0.0, 0.0, -0.0, NAN, 1.0, -INFINITY, NAN, NAN, 0.0, -0.0, 1.0, -6.0, NAN, INFINITY, -1.0, NAN, NAN, 0.0, -0.0, 1.5, -1.0, NAN, 2.5, -INFINITY, NAN, NAN, 0.5, -0.5, 0.0, -4.5, NAN, INFINITY, -7.0, NAN, NAN, 0.0, -0.0, 0.5, -0.0}},
    {"power", 0, {NAN, NAN, NAN, 1.0, 1.0, NAN, NAN, NAN, NAN, NAN, INFINITY, 0.0, 1.0, 1.0, INFINITY, 0.0, INFINITY, 0.0, NAN, INFINITY, 0.0, 1.0, 1.0, -INFINITY, -0.0, INFINITY, -0.0, NAN, 0.0, INFINITY, 1.0, 1.0, 0.0, INFINITY, 0.0, INFINITY, NAN, 0.0, INFINITY, 1.0, 1.0, -0.0, -INFINITY, 0.0, -INFINITY, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, NAN, 1.0, 1.0, 1.0, 1.0, -1.0, -1.0, NAN, -1.0, NAN, INFINITY, 0.0, 1.0, 1.0, 2.5, 0.4, 9.882117688026185, 0.0016384, NAN, INFINITY, 0.0, 1.0, 1.0, -7.0, -0.14285714285714285, NAN, -1.2142656789020123e-06}},
    {"maximum", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, NAN, INFINITY, 0.0, 0.0, -0.0, 1.0, 0.0, 2.5, 0.0, NAN, INFINITY, -0.0, 0.0, -0.0, 1.0, -0.0, 2.5, -0.0, NAN, INFINITY, 1.0, 1.0, 1.0, 1.0, 1.0, 2.5, 1.0, NAN, INFINITY, -1.0, 0.0, -0.0, 1.0, -1.0, 2.5, -1.0, NAN, INFINITY, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, NAN, INFINITY, -7.0, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0}},
    {"minimum", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, NAN, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, NAN, 0.0, -INFINITY, 0.0, -0.0, 0.0, -1.0, 0.0, -7.0, NAN, -0.0, -INFINITY, 0.0, -0.0, -0.0, -1.0, -0.0, -7.0, NAN, 1.0, -INFINITY, 0.0, -0.0, 1.0, -1.0, 1.0, -7.0, NAN, -1.0, -INFINITY, -1.0, -1.0, -1.0, -1.0, -1.0, -7.0, NAN, 2.5, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, NAN, -7.0, -INFINITY, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0}},
    {"fmax", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, 0.0, INFINITY, 0.0, 0.0, -0.0, 1.0, 0.0, 2.5, 0.0, -0.0, INFINITY, -0.0, 0.0, -0.0, 1.0, -0.0, 2.5, -0.0, 1.0, INFINITY, 1.0, 1.0, 1.0, 1.0, 1.0, 2.5, 1.0, -1.0, INFINITY, -1.0, 0.0, -0.0, 1.0, -1.0, 2.5, -1.0, 2.5, INFINITY, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, -7.0, INFINITY, -7.0, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0}},
    {"fmin", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, INFINITY, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, 0.0, 0.0, -INFINITY, 0.0, -0.0, 0.0, -1.0, 0.0, -7.0, -0.0, -0.0, -INFINITY, 0.0, -0.0, -0.0, -1.0, -0.0, -7.0, 1.0, 1.0, -INFINITY, 0.0, -0.0, 1.0, -1.0, 1.0, -7.0, -1.0, -1.0, -INFINITY, -1.0, -1.0, -1.0, -1.0, -1.0, -7.0, 2.5, 2.5, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, -7.0, -7.0, -INFINITY, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0}},
    {"copysign", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, 0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 2.5, 2.5, -2.5, 2.5, -2.5, 2.5, -2.5, 2.5, -2.5, 7.0, 7.0, -7.0, 7.0, -7.0, 7.0, -7.0, 7.0, -7.0}},
    {"nextafter", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, 1.7976931348623157e+308, 1.7976931348623157e+308, 1.7976931348623157e+308, 1.7976931348623157e+308, 1.7976931348623157e+308, 1.7976931348623157e+308, 1.7976931348623157e+308, NAN, -1.7976931348623157e+308, -INFINITY, -1.7976931348623157e+308, -1.7976931348623157e+308, -1.7976931348623157e+308, -1.7976931348623157e+308, -1.7976931348623157e+308, -1.7976931348623157e+308, NAN, 5e-324, -5e-324, 0.0, -0.0, 5e-324, -5e-324, 5e-324, -5e-324, NAN, 5e-324, -5e-324, 0.0, -0.0, 5e-324, -5e-324, 5e-324, -5e-324, NAN, 1.0000000000000002, 0.9999999999999999, 0.9999999999999999, 0.9999999999999999, 1.0, 0.9999999999999999, 1.0000000000000002, 0.9999999999999999, NAN, -0.9999999999999999, -1.0000000000000002, -0.9999999999999999, -0.9999999999999999, -0.9999999999999999, -1.0, -0.9999999999999999, -1.0000000000000002, NAN, 2.5000000000000004, 2.4999999999999996, 2.4999999999999996, 2.4999999999999996, 2.4999999999999996, 2.4999999999999996, 2.5, 2.4999999999999996, NAN, -6.999999999999999, -7.000000000000001, -6.999999999999999, -6.999999999999999, -6.999999999999999, -6.999999999999999, -6.999999999999999, -7.0}},
    {"heaviside", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
    {"arctan2", 0, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0.7853981633974483, 2.356194490192345, 1.5707963267948966, 1.5707963267948966, 1.5707963267948966, 1.5707963267948966, 1.5707963267948966, 1.5707963267948966, NAN, -0.7853981633974483, -2.356194490192345, -1.5707963267948966, -1.5707963267948966, -1.5707963267948966, -1.5707963267948966, -1.5707963267948966, -1.5707963267948966, NAN, 0.0, 3.141592653589793, 0.0, 3.141592653589793, 0.0, 3.141592653589793, 0.0, 3.141592653589793, NAN, -0.0, -3.141592653589793, -0.0, -3.141592653589793, -0.0, -3.141592653589793, -0.0, -3.141592653589793, NAN, 0.0, 3.141592653589793, 1.5707963267948966, 1.5707963267948966, 0.7853981633974483, 2.356194490192345, 0.3805063771123649, 2.999695598985629, NAN, -0.0, -3.141592653589793, -1.5707963267948966, -1.5707963267948966, -0.7853981633974483, -2.356194490192345, -0.3805063771123649, -2.999695598985629, NAN, 0.0, 3.141592653589793, 1.5707963267948966, 1.5707963267948966, 1.1902899496825317, 1.9513027039072615, 0.7853981633974483, 2.79856871316909, NAN, -0.0, -3.141592653589793, -1.5707963267948966, -1.5707963267948966, -1.4288992721907328, -1.7126933813990606, -1.2277723863741932, -2.356194490192345}},
    {"hypot", 0, {NAN, INFINITY, INFINITY, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, NAN, INFINITY, INFINITY, 0.0, 0.0, 1.0, 1.0, 2.5, 7.0, NAN, INFINITY, INFINITY, 0.0, 0.0, 1.0, 1.0, 2.5, 7.0, NAN, INFINITY, INFINITY, 1.0, 1.0, 1.4142135623730951, 1.4142135623730951, 2.692582403567252, 7.0710678118654755, NAN, INFINITY, INFINITY, 1.0, 1.0, 1.4142135623730951, 1.4142135623730951, 2.692582403567252, 7.0710678118654755, NAN, INFINITY, INFINITY, 2.5, 2.5, 2.692582403567252, 2.692582403567252, 3.5355339059327378, 7.433034373659253, NAN, INFINITY, INFINITY, 7.0, 7.0, 7.0710678118654755, 7.0710678118654755, 7.433034373659253, 9.899494936611665}},
    {"logaddexp", 0, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, NAN, INFINITY, -INFINITY, 0.0, 0.0, 1.0, -1.0, 2.5, -7.0, NAN, INFINITY, 0.0, 0.6931471805599453, 0.6931471805599453, 1.3132616875182228, 0.31326168751822286, 2.5788897342925496, 0.0009114664537742447, NAN, INFINITY, 0.0, 0.6931471805599453, 0.6931471805599453, 1.3132616875182228, 0.31326168751822286, 2.5788897342925496, 0.0009114664537742447, NAN, INFINITY, 1.0, 1.3132616875182228, 1.3132616875182228, 1.6931471805599454, 1.1269280110429725, 2.7014132779827524, 1.0003354063728958, NAN, INFINITY, -1.0, 0.31326168751822286, 0.31326168751822286, 1.1269280110429725, -0.3068528194400547, 2.5297504182726205, -0.9975243148622696, NAN, INFINITY, 2.5, 2.5788897342925496, 2.5788897342925496, 2.7014132779827524, 2.5297504182726205, 3.1931471805599454, 2.5000748490286293, NAN, INFINITY, -7.0, 0.0009114664537742447, 0.0009114664537742447, 1.0003354063728958, -0.9975243148622696, 2.5000748490286293, -6.306852819440055}},
    {"logaddexp2", 0, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, NAN, INFINITY, -INFINITY, 0.0, 0.0, 1.0, -1.0, 2.5, -7.0, NAN, INFINITY, 0.0, 1.0, 1.0, 1.584962500721156, 0.5849625007211562, 2.734840581079202, 0.01122725542325412, NAN, INFINITY, 0.0, 1.0, 1.0, 1.584962500721156, 0.5849625007211562, 2.734840581079202, 0.01122725542325412, NAN, INFINITY, 1.0, 1.584962500721156, 1.584962500721156, 2.0, 1.3219280948873624, 2.936751795439824, 1.005624549193878, NAN, INFINITY, -1.0, 0.5849625007211562, 0.5849625007211562, 1.3219280948873624, 0.0, 2.622193416202274, -0.9776321869715455, NAN, INFINITY, 2.5, 2.734840581079202, 2.734840581079202, 2.936751795439824, 2.622193416202274, 3.5, 2.5019910852608884, NAN, INFINITY, -7.0, 0.01122725542325412, 0.01122725542325412, 1.005624549193878, -0.9776321869715455, 2.5019910852608884, -6.0}},
    {"float_power", 0, {NAN, NAN, NAN, 1.0, 1.0, NAN, NAN, NAN, NAN, NAN, INFINITY, 0.0, 1.0, 1.0, INFINITY, 0.0, INFINITY, 0.0, NAN, INFINITY, 0.0, 1.0, 1.0, -INFINITY, -0.0, INFINITY, -0.0, NAN, 0.0, INFINITY, 1.0, 1.0, 0.0, INFINITY, 0.0, INFINITY, NAN, 0.0, INFINITY, 1.0, 1.0, -0.0, -INFINITY, 0.0, -INFINITY, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, NAN, 1.0, 1.0, 1.0, 1.0, -1.0, -1.0, NAN, -1.0, NAN, INFINITY, 0.0, 1.0, 1.0, 2.5, 0.4, 9.882117688026186, 0.0016384, NAN, INFINITY, 0.0, 1.0, 1.0, -7.0, -0.14285714285714285, NAN, -1.2142656789020123e-06}},
};
static const bool_row ef64_binb[] = {
    {"equal", "000000000010000000001000000000110000000110000000001000000000100000000010000000001"},
    {"not_equal", "111111111101111111110111111111001111111001111111110111111111011111111101111111110"},
    {"less", "000000000000000000010111111010001010010001010010000010010111010010000000010111110"},
    {"less_equal", "000000000010000000011111111010111010010111010010001010010111110010000010010111111"},
    {"greater", "000000000001111111000000000001000101001000101001110101001000001001111101001000000"},
    {"greater_equal", "000000000011111111001000000001110101001110101001111101001000101001111111001000001"},
    {"logical_and", "111001111111001111111001111000000000000000000111001111111001111111001111111001111"},
    {"logical_or", "111111111111111111111111111111001111111001111111111111111111111111111111111111111"},
    {"logical_xor", "000110000000110000000110000111001111111001111000110000000110000000110000000110000"},
};
static const edge_row ef64_un[] = {
    {"negative", 1, {NAN, -INFINITY, INFINITY, -0.0, 0.0, -1.0, 1.0, -0.5, 0.5, -1.5, -2.5, 2.5, -0.75, -1e+300}},
    {"positive", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.75, 1e+300}},
    {"absolute", 1, {NAN, INFINITY, INFINITY, 0.0, 0.0, 1.0, 1.0, 0.5, 0.5, 1.5, 2.5, 2.5, 0.75, 1e+300}},
    {"sign", 1, {NAN, 1.0, -1.0, 0.0, 0.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, 1.0}},
    {"square", 1, {NAN, INFINITY, INFINITY, 0.0, 0.0, 1.0, 1.0, 0.25, 0.25, 2.25, 6.25, 6.25, 0.5625, INFINITY}},
    {"sqrt", 1, {NAN, INFINITY, NAN, 0.0, -0.0, 1.0, NAN, 0.7071067811865476, NAN, 1.224744871391589, 1.5811388300841898, NAN, 0.8660254037844386, 1e+150}},
    {"cbrt", 0, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.7937005259840998, -0.7937005259840998, 1.1447142425533319, 1.3572088082974534, -1.3572088082974534, 0.9085602964160698, 1e+100}},
    {"reciprocal", 1, {NAN, 0.0, -0.0, INFINITY, -INFINITY, 1.0, -1.0, 2.0, -2.0, 0.6666666666666666, 0.4, -0.4, 1.3333333333333333, 1e-300}},
    {"exp", 0, {NAN, INFINITY, 0.0, 1.0, 1.0, 2.718281828459045, 0.36787944117144233, 1.6487212707001282, 0.6065306597126334, 4.4816890703380645, 12.182493960703473, 0.0820849986238988, 2.117000016612675, INFINITY}},
    {"exp2", 0, {NAN, INFINITY, 0.0, 1.0, 1.0, 2.0, 0.5, 1.4142135623730951, 0.7071067811865476, 2.8284271247461903, 5.656854249492381, 0.1767766952966369, 1.681792830507429, INFINITY}},
    {"expm1", 0, {NAN, INFINITY, -1.0, 0.0, -0.0, 1.7182818284590453, -0.6321205588285577, 0.6487212707001282, -0.3934693402873666, 3.481689070338065, 11.182493960703473, -0.9179150013761012, 1.1170000166126746, INFINITY}},
    {"log", 0, {NAN, INFINITY, NAN, -INFINITY, -INFINITY, 0.0, NAN, -0.6931471805599453, NAN, 0.4054651081081644, 0.9162907318741551, NAN, -0.2876820724517809, 690.7755278982137}},
    {"log2", 0, {NAN, INFINITY, NAN, -INFINITY, -INFINITY, 0.0, NAN, -1.0, NAN, 0.5849625007211562, 1.3219280948873624, NAN, -0.4150374992788438, 996.5784284662087}},
    {"log10", 0, {NAN, INFINITY, NAN, -INFINITY, -INFINITY, 0.0, NAN, -0.3010299956639812, NAN, 0.17609125905568124, 0.3979400086720376, NAN, -0.12493873660829995, 300.0}},
    {"log1p", 0, {NAN, INFINITY, NAN, 0.0, -0.0, 0.6931471805599453, -INFINITY, 0.4054651081081644, -0.6931471805599453, 0.9162907318741551, 1.252762968495368, NAN, 0.5596157879354227, 690.7755278982137}},
    {"sin", 0, {NAN, NAN, NAN, 0.0, -0.0, 0.8414709848078965, -0.8414709848078965, 0.479425538604203, -0.479425538604203, 0.9974949866040544, 0.5984721441039565, -0.5984721441039565, 0.6816387600233341, -0.8178819121159085}},
    {"cos", 0, {NAN, NAN, NAN, 1.0, 1.0, 0.5403023058681398, 0.5403023058681398, 0.8775825618903728, 0.8775825618903728, 0.0707372016677029, -0.8011436155469337, -0.8011436155469337, 0.7316888688738209, -0.5753861119575491}},
    {"tan", 0, {NAN, NAN, NAN, 0.0, -0.0, 1.5574077246549023, -1.5574077246549023, 0.5463024898437905, -0.5463024898437905, 14.101419947171719, -0.7470222972386603, 0.7470222972386603, 0.9315964599440725, 1.4214488238747245}},
    {"arcsin", 0, {NAN, NAN, NAN, 0.0, -0.0, 1.5707963267948966, -1.5707963267948966, 0.5235987755982989, -0.5235987755982989, NAN, NAN, NAN, 0.848062078981481, NAN}},
    {"arccos", 0, {NAN, NAN, NAN, 1.5707963267948966, 1.5707963267948966, 0.0, 3.141592653589793, 1.0471975511965976, 2.0943951023931957, NAN, NAN, NAN, 0.7227342478134156, NAN}},
    {"arctan", 0, {NAN, 1.5707963267948966, -1.5707963267948966, 0.0, -0.0, 0.7853981633974483, -0.7853981633974483, 0.4636476090008061, -0.4636476090008061, 0.982793723247329, 1.1902899496825317, -1.1902899496825317, 0.6435011087932844, 1.5707963267948966}},
    {"sinh", 0, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.1752011936438014, -1.1752011936438014, 0.5210953054937474, -0.5210953054937474, 2.1292794550948173, 6.0502044810397875, -6.0502044810397875, 0.82231673193583, INFINITY}},
    {"cosh", 0, {NAN, INFINITY, INFINITY, 1.0, 1.0, 1.5430806348152437, 1.5430806348152437, 1.1276259652063807, 1.1276259652063807, 2.352409615243247, 6.132289479663686, 6.132289479663686, 1.2946832846768448, INFINITY}},
    {"tanh", 0, {NAN, 1.0, -1.0, 0.0, -0.0, 0.7615941559557649, -0.7615941559557649, 0.46211715726000974, -0.46211715726000974, 0.9051482536448665, 0.9866142981514303, -0.9866142981514303, 0.6351489523872873, 1.0}},
    {"arcsinh", 0, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.881373587019543, -0.881373587019543, 0.48121182505960347, -0.48121182505960347, 1.1947632172871092, 1.6472311463710958, -1.6472311463710958, 0.6931471805599453, 691.4686750787737}},
    {"arccosh", 0, {NAN, INFINITY, NAN, NAN, NAN, 0.0, NAN, NAN, NAN, 0.9624236501192069, 1.566799236972411, NAN, NAN, 691.4686750787737}},
    {"arctanh", 0, {NAN, NAN, NAN, 0.0, -0.0, INFINITY, -INFINITY, 0.5493061443340549, -0.5493061443340549, NAN, NAN, NAN, 0.9729550745276566, NAN}},
    {"floor", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.0, -1.0, 1.0, 2.0, -3.0, 0.0, 1e+300}},
    {"ceil", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 1.0, -0.0, 2.0, 3.0, -2.0, 1.0, 1e+300}},
    {"trunc", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.0, -0.0, 1.0, 2.0, -2.0, 0.0, 1e+300}},
    {"rint", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.0, -0.0, 2.0, 2.0, -2.0, 1.0, 1e+300}},
};
static const bool_row ef64_unb[] = {
    {"isnan", "10000000000000"},
    {"isinf", "01100000000000"},
    {"isfinite", "00011111111111"},
    {"signbit", "00101010100100"},
    {"logical_not", "00011000000000"},
};
static const double ef32_bin_vals[9] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0};
static const double ef32_un_vals[14] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.75, 1e+30};
static const edge_row ef32_bin[] = {
    {"true_divide", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, NAN, NAN, NAN, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, NAN, 0.0, -0.0, NAN, NAN, 0.0, -0.0, 0.0, -0.0, NAN, -0.0, 0.0, NAN, NAN, -0.0, 0.0, -0.0, 0.0, NAN, 0.0, -0.0, INFINITY, -INFINITY, 1.0, -1.0, 0.4000000059604645, -0.1428571492433548, NAN, -0.0, 0.0, -INFINITY, INFINITY, -1.0, 1.0, -0.4000000059604645, 0.1428571492433548, NAN, 0.0, -0.0, INFINITY, -INFINITY, 2.5, -2.5, 1.0, -0.3571428656578064, NAN, -0.0, 0.0, -INFINITY, INFINITY, -7.0, 7.0, -2.799999952316284, 1.0}},
    {"floor_divide", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, -INFINITY, NAN, NAN, NAN, NAN, NAN, NAN, NAN, -INFINITY, INFINITY, NAN, NAN, NAN, NAN, NAN, 0.0, -0.0, NAN, NAN, 0.0, -0.0, 0.0, -0.0, NAN, -0.0, 0.0, NAN, NAN, -0.0, 0.0, -0.0, 0.0, NAN, 0.0, -1.0, INFINITY, -INFINITY, 1.0, -1.0, 0.0, -1.0, NAN, -1.0, 0.0, -INFINITY, INFINITY, -1.0, 1.0, -1.0, 0.0, NAN, 0.0, -1.0, INFINITY, -INFINITY, 2.0, -3.0, 1.0, -1.0, NAN, -1.0, 0.0, -INFINITY, INFINITY, -7.0, 7.0, -3.0, 1.0}},
    {"remainder", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0.0, -0.0, NAN, NAN, 0.0, -0.0, 0.0, -0.0, NAN, 0.0, -0.0, NAN, NAN, 0.0, -0.0, 0.0, -0.0, NAN, 1.0, -INFINITY, NAN, NAN, 0.0, -0.0, 1.0, -6.0, NAN, INFINITY, -1.0, NAN, NAN, 0.0, -0.0, 1.5, -1.0, NAN, 2.5, -INFINITY, NAN, NAN, 0.5, -0.5, 0.0, -4.5, NAN, INFINITY, -7.0, NAN, NAN, 0.0, -0.0, 0.5, -0.0}},
    {"power", 0, {NAN, NAN, NAN, 1.0, 1.0, NAN, NAN, NAN, NAN, NAN, INFINITY, 0.0, 1.0, 1.0, INFINITY, 0.0, INFINITY, 0.0, NAN, INFINITY, 0.0, 1.0, 1.0, -INFINITY, -0.0, INFINITY, -0.0, NAN, 0.0, INFINITY, 1.0, 1.0, 0.0, INFINITY, 0.0, INFINITY, NAN, 0.0, INFINITY, 1.0, 1.0, -0.0, -INFINITY, 0.0, -INFINITY, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, NAN, 1.0, 1.0, 1.0, 1.0, -1.0, -1.0, NAN, -1.0, NAN, INFINITY, 0.0, 1.0, 1.0, 2.5, 0.4000000059604645, 9.88211727142334, 0.001638400019146502, NAN, INFINITY, 0.0, 1.0, 1.0, -7.0, -0.1428571492433548, NAN, -1.2142656942160102e-06}},
    {"maximum", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, NAN, INFINITY, 0.0, 0.0, -0.0, 1.0, 0.0, 2.5, 0.0, NAN, INFINITY, -0.0, 0.0, -0.0, 1.0, -0.0, 2.5, -0.0, NAN, INFINITY, 1.0, 1.0, 1.0, 1.0, 1.0, 2.5, 1.0, NAN, INFINITY, -1.0, 0.0, -0.0, 1.0, -1.0, 2.5, -1.0, NAN, INFINITY, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, NAN, INFINITY, -7.0, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0}},
    {"minimum", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, NAN, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, NAN, 0.0, -INFINITY, 0.0, -0.0, 0.0, -1.0, 0.0, -7.0, NAN, -0.0, -INFINITY, 0.0, -0.0, -0.0, -1.0, -0.0, -7.0, NAN, 1.0, -INFINITY, 0.0, -0.0, 1.0, -1.0, 1.0, -7.0, NAN, -1.0, -INFINITY, -1.0, -1.0, -1.0, -1.0, -1.0, -7.0, NAN, 2.5, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, NAN, -7.0, -INFINITY, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0}},
    {"fmax", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, 0.0, INFINITY, 0.0, 0.0, -0.0, 1.0, 0.0, 2.5, 0.0, -0.0, INFINITY, -0.0, 0.0, -0.0, 1.0, -0.0, 2.5, -0.0, 1.0, INFINITY, 1.0, 1.0, 1.0, 1.0, 1.0, 2.5, 1.0, -1.0, INFINITY, -1.0, 0.0, -0.0, 1.0, -1.0, 2.5, -1.0, 2.5, INFINITY, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, -7.0, INFINITY, -7.0, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0}},
    {"fmin", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, INFINITY, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, 0.0, 0.0, -INFINITY, 0.0, -0.0, 0.0, -1.0, 0.0, -7.0, -0.0, -0.0, -INFINITY, 0.0, -0.0, -0.0, -1.0, -0.0, -7.0, 1.0, 1.0, -INFINITY, 0.0, -0.0, 1.0, -1.0, 1.0, -7.0, -1.0, -1.0, -INFINITY, -1.0, -1.0, -1.0, -1.0, -1.0, -7.0, 2.5, 2.5, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, -7.0, -7.0, -INFINITY, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0}},
    {"copysign", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY, 0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 2.5, 2.5, -2.5, 2.5, -2.5, 2.5, -2.5, 2.5, -2.5, 7.0, 7.0, -7.0, 7.0, -7.0, 7.0, -7.0, 7.0, -7.0}},
    {"nextafter", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, 3.4028234663852886e+38, 3.4028234663852886e+38, 3.4028234663852886e+38, 3.4028234663852886e+38, 3.4028234663852886e+38, 3.4028234663852886e+38, 3.4028234663852886e+38, NAN, -3.4028234663852886e+38, -INFINITY, -3.4028234663852886e+38, -3.4028234663852886e+38, -3.4028234663852886e+38, -3.4028234663852886e+38, -3.4028234663852886e+38, -3.4028234663852886e+38, NAN, 1.401298464324817e-45, -1.401298464324817e-45, 0.0, -0.0, 1.401298464324817e-45, -1.401298464324817e-45, 1.401298464324817e-45, -1.401298464324817e-45, NAN, 1.401298464324817e-45, -1.401298464324817e-45, 0.0, -0.0, 1.401298464324817e-45, -1.401298464324817e-45, 1.401298464324817e-45, -1.401298464324817e-45, NAN, 1.0000001192092896, 0.9999999403953552, 0.9999999403953552, 0.9999999403953552, 1.0, 0.9999999403953552, 1.0000001192092896, 0.9999999403953552, NAN, -0.9999999403953552, -1.0000001192092896, -0.9999999403953552, -0.9999999403953552, -0.9999999403953552, -1.0, -0.9999999403953552, -1.0000001192092896, NAN, 2.500000238418579, 2.499999761581421, 2.499999761581421, 2.499999761581421, 2.499999761581421, 2.499999761581421, 2.5, 2.499999761581421, NAN, -6.999999523162842, -7.000000476837158, -6.999999523162842, -6.999999523162842, -6.999999523162842, -6.999999523162842, -6.999999523162842, -7.0}},
    {"heaviside", 1, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5, -7.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
    {"arctan2", 0, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0.7853981852531433, 2.356194496154785, 1.5707963705062866, 1.5707963705062866, 1.5707963705062866, 1.5707963705062866, 1.5707963705062866, 1.5707963705062866, NAN, -0.7853981852531433, -2.356194496154785, -1.5707963705062866, -1.5707963705062866, -1.5707963705062866, -1.5707963705062866, -1.5707963705062866, -1.5707963705062866, NAN, 0.0, 3.1415927410125732, 0.0, 3.1415927410125732, 0.0, 3.1415927410125732, 0.0, 3.1415927410125732, NAN, -0.0, -3.1415927410125732, -0.0, -3.1415927410125732, -0.0, -3.1415927410125732, -0.0, -3.1415927410125732, NAN, 0.0, 3.1415927410125732, 1.5707963705062866, 1.5707963705062866, 0.7853981256484985, 2.356194496154785, 0.38050639629364014, 2.9996957778930664, NAN, -0.0, -3.1415927410125732, -1.5707963705062866, -1.5707963705062866, -0.7853981256484985, -2.356194496154785, -0.38050639629364014, -2.9996957778930664, NAN, 0.0, 3.1415927410125732, 1.5707963705062866, 1.5707963705062866, 1.1902899742126465, 1.9513027667999268, 0.7853981256484985, 2.7985687255859375, NAN, -0.0, -3.1415927410125732, -1.5707963705062866, -1.5707963705062866, -1.4288992881774902, -1.712693452835083, -1.2277724742889404, -2.356194496154785}},
    {"hypot", 0, {NAN, INFINITY, INFINITY, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, NAN, INFINITY, INFINITY, 0.0, 0.0, 1.0, 1.0, 2.5, 7.0, NAN, INFINITY, INFINITY, 0.0, 0.0, 1.0, 1.0, 2.5, 7.0, NAN, INFINITY, INFINITY, 1.0, 1.0, 1.4142135381698608, 1.4142135381698608, 2.692582368850708, 7.071067810058594, NAN, INFINITY, INFINITY, 1.0, 1.0, 1.4142135381698608, 1.4142135381698608, 2.692582368850708, 7.071067810058594, NAN, INFINITY, INFINITY, 2.5, 2.5, 2.692582368850708, 2.692582368850708, 3.535533905029297, 7.433034420013428, NAN, INFINITY, INFINITY, 7.0, 7.0, 7.071067810058594, 7.071067810058594, 7.433034420013428, 9.899495124816895}},
    {"logaddexp", 0, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, NAN, INFINITY, -INFINITY, 0.0, 0.0, 1.0, -1.0, 2.5, -7.0, NAN, INFINITY, 0.0, 0.6931471824645996, 0.6931471824645996, 1.3132617473602295, 0.3132616877555847, 2.578889846801758, 0.000911466486286372, NAN, INFINITY, 0.0, 0.6931471824645996, 0.6931471824645996, 1.3132617473602295, 0.3132616877555847, 2.578889846801758, 0.000911466486286372, NAN, INFINITY, 1.0, 1.3132617473602295, 1.3132617473602295, 1.6931471824645996, 1.1269279718399048, 2.70141339302063, 1.000335454940796, NAN, INFINITY, -1.0, 0.3132616877555847, 0.3132616877555847, 1.1269279718399048, -0.3068528175354004, 2.529750347137451, -0.9975243210792542, NAN, INFINITY, 2.5, 2.578889846801758, 2.578889846801758, 2.70141339302063, 2.529750347137451, 3.1931471824645996, 2.500074863433838, NAN, INFINITY, -7.0, 0.000911466486286372, 0.000911466486286372, 1.000335454940796, -0.9975243210792542, 2.500074863433838, -6.3068528175354}},
    {"logaddexp2", 0, {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, NAN, INFINITY, -INFINITY, 0.0, 0.0, 1.0, -1.0, 2.5, -7.0, NAN, INFINITY, 0.0, 1.0, 1.0, 1.5849624872207642, 0.5849624872207642, 2.7348406314849854, 0.011227254755795002, NAN, INFINITY, 0.0, 1.0, 1.0, 1.5849624872207642, 0.5849624872207642, 2.7348406314849854, 0.011227254755795002, NAN, INFINITY, 1.0, 1.5849624872207642, 1.5849624872207642, 2.0, 1.3219280242919922, 2.9367518424987793, 1.005624532699585, NAN, INFINITY, -1.0, 0.5849624872207642, 0.5849624872207642, 1.3219280242919922, 0.0, 2.6221933364868164, -0.9776321649551392, NAN, INFINITY, 2.5, 2.7348406314849854, 2.7348406314849854, 2.9367518424987793, 2.6221933364868164, 3.5, 2.501991033554077, NAN, INFINITY, -7.0, 0.011227254755795002, 0.011227254755795002, 1.005624532699585, -0.9776321649551392, 2.501991033554077, -6.0}},
};
static const bool_row ef32_binb[] = {
    {"equal", "000000000010000000001000000000110000000110000000001000000000100000000010000000001"},
    {"not_equal", "111111111101111111110111111111001111111001111111110111111111011111111101111111110"},
    {"less", "000000000000000000010111111010001010010001010010000010010111010010000000010111110"},
    {"less_equal", "000000000010000000011111111010111010010111010010001010010111110010000010010111111"},
    {"greater", "000000000001111111000000000001000101001000101001110101001000001001111101001000000"},
    {"greater_equal", "000000000011111111001000000001110101001110101001111101001000101001111111001000001"},
    {"logical_and", "111001111111001111111001111000000000000000000111001111111001111111001111111001111"},
    {"logical_or", "111111111111111111111111111111001111111001111111111111111111111111111111111111111"},
    {"logical_xor", "000110000000110000000110000111001111111001111000110000000110000000110000000110000"},
};
static const edge_row ef32_un[] = {
    {"negative", 1, {NAN, -INFINITY, INFINITY, -0.0, 0.0, -1.0, 1.0, -0.5, 0.5, -1.5, -2.5, 2.5, -0.75, -1.0000000150474662e+30}},
    {"positive", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.75, 1.0000000150474662e+30}},
    {"absolute", 1, {NAN, INFINITY, INFINITY, 0.0, 0.0, 1.0, 1.0, 0.5, 0.5, 1.5, 2.5, 2.5, 0.75, 1.0000000150474662e+30}},
    {"sign", 1, {NAN, 1.0, -1.0, 0.0, 0.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, 1.0}},
    {"square", 1, {NAN, INFINITY, INFINITY, 0.0, 0.0, 1.0, 1.0, 0.25, 0.25, 2.25, 6.25, 6.25, 0.5625, INFINITY}},
    {"sqrt", 1, {NAN, INFINITY, NAN, 0.0, -0.0, 1.0, NAN, 0.7071067690849304, NAN, 1.2247449159622192, 1.5811388492584229, NAN, 0.8660253882408142, 999999986991104.0}},
    {"cbrt", 0, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.7937005162239075, -0.7937005162239075, 1.1447142362594604, 1.3572087287902832, -1.3572087287902832, 0.9085603356361389, 10000000000.0}},
    {"reciprocal", 1, {NAN, 0.0, -0.0, INFINITY, -INFINITY, 1.0, -1.0, 2.0, -2.0, 0.6666666865348816, 0.4000000059604645, -0.4000000059604645, 1.3333333730697632, 1.0000000031710769e-30}},
    {"exp", 0, {NAN, INFINITY, 0.0, 1.0, 1.0, 2.7182819843292236, 0.3678794205188751, 1.6487212181091309, 0.6065306663513184, 4.481688976287842, 12.182493209838867, 0.0820850059390068, 2.117000102996826, INFINITY}},
    {"exp2", 0, {NAN, INFINITY, 0.0, 1.0, 1.0, 2.0, 0.5, 1.4142135381698608, 0.7071067690849304, 2.8284270763397217, 5.656854152679443, 0.1767766922712326, 1.6817928552627563, INFINITY}},
    {"expm1", 0, {NAN, INFINITY, -1.0, 0.0, -0.0, 1.718281865119934, -0.6321205496788025, 0.6487212777137756, -0.39346933364868164, 3.481688976287842, 11.182494163513184, -0.9179150462150574, 1.1169999837875366, INFINITY}},
    {"log", 0, {NAN, INFINITY, NAN, -INFINITY, -INFINITY, 0.0, NAN, -0.6931471824645996, NAN, 0.40546509623527527, 0.9162907600402832, NAN, -0.28768208622932434, 69.07755279541016}},
    {"log2", 0, {NAN, INFINITY, NAN, -INFINITY, -INFINITY, 0.0, NAN, -1.0, NAN, 0.5849624872207642, 1.3219280242919922, NAN, -0.41503751277923584, 99.65784454345703}},
    {"log10", 0, {NAN, INFINITY, NAN, -INFINITY, -INFINITY, 0.0, NAN, -0.3010300099849701, NAN, 0.176091268658638, 0.3979400396347046, NAN, -0.12493874132633209, 30.000001907348633}},
    {"log1p", 0, {NAN, INFINITY, NAN, 0.0, -0.0, 0.6931471824645996, -INFINITY, 0.40546512603759766, -0.6931471824645996, 0.9162907600402832, 1.252763032913208, NAN, 0.5596157908439636, 69.07755279541016}},
    {"sin", 0, {NAN, NAN, NAN, 0.0, -0.0, 0.8414710164070129, -0.8414710164070129, 0.4794255495071411, -0.4794255495071411, 0.9974949955940247, 0.5984721779823303, -0.5984721779823303, 0.681638777256012, -0.791163444519043}},
    {"cos", 0, {NAN, NAN, NAN, 1.0, 1.0, 0.5403022766113281, 0.5403022766113281, 0.8775825500488281, 0.8775825500488281, 0.07073719799518585, -0.8011435866355896, -0.8011435866355896, 0.7316888570785522, -0.6116048097610474}},
    {"tan", 0, {NAN, NAN, NAN, 0.0, -0.0, 1.5574077367782593, -1.5574077367782593, 0.5463024973869324, -0.5463024973869324, 14.101420402526855, -0.747022271156311, 0.747022271156311, 0.9315964579582214, 1.293586015701294}},
    {"arcsin", 0, {NAN, NAN, NAN, 0.0, -0.0, 1.5707963705062866, -1.5707963705062866, 0.5235987901687622, -0.5235987901687622, NAN, NAN, NAN, 0.8480621576309204, NAN}},
    {"arccos", 0, {NAN, NAN, NAN, 1.5707963705062866, 1.5707963705062866, 0.0, 3.1415927410125732, 1.0471975803375244, 2.094395160675049, NAN, NAN, NAN, 0.7227342128753662, NAN}},
    {"arctan", 0, {NAN, 1.5707963705062866, -1.5707963705062866, 0.0, -0.0, 0.7853981852531433, -0.7853981852531433, 0.46364760398864746, -0.46364760398864746, 0.9827937483787537, 1.1902899742126465, -1.1902899742126465, 0.6435011029243469, 1.5707963705062866}},
    {"sinh", 0, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.175201177597046, -1.175201177597046, 0.5210952758789062, -0.5210952758789062, 2.129279375076294, 6.050204277038574, -6.050204277038574, 0.8223167657852173, INFINITY}},
    {"cosh", 0, {NAN, INFINITY, INFINITY, 1.0, 1.0, 1.5430806875228882, 1.5430806875228882, 1.1276260614395142, 1.1276260614395142, 2.352409601211548, 6.132289886474609, 6.132289886474609, 1.2946833372116089, INFINITY}},
    {"tanh", 0, {NAN, 1.0, -1.0, 0.0, -0.0, 0.7615941762924194, -0.7615941762924194, 0.46211719512939453, -0.46211719512939453, 0.9051482081413269, 0.9866142868995667, -0.9866142868995667, 0.6351490020751953, 1.0}},
    {"arcsinh", 0, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.8813735842704773, -0.8813735842704773, 0.4812118113040924, -0.4812118113040924, 1.19476318359375, 1.647231101989746, -1.647231101989746, 0.6931471824645996, 69.77069854736328}},
    {"arccosh", 0, {NAN, INFINITY, NAN, NAN, NAN, 0.0, NAN, NAN, NAN, 0.9624236226081848, 1.566799283027649, NAN, NAN, 69.77069854736328}},
    {"arctanh", 0, {NAN, NAN, NAN, 0.0, -0.0, INFINITY, -INFINITY, 0.5493061542510986, -0.5493061542510986, NAN, NAN, NAN, 0.972955048084259, NAN}},
    {"floor", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.0, -1.0, 1.0, 2.0, -3.0, 0.0, 1.0000000150474662e+30}},
    {"ceil", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 1.0, -0.0, 2.0, 3.0, -2.0, 1.0, 1.0000000150474662e+30}},
    {"trunc", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.0, -0.0, 1.0, 2.0, -2.0, 0.0, 1.0000000150474662e+30}},
    {"rint", 1, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.0, -0.0, 2.0, 2.0, -2.0, 1.0, 1.0000000150474662e+30}},
};
static const bool_row ef32_unb[] = {
    {"isnan", "10000000000000"},
    {"isinf", "01100000000000"},
    {"isfinite", "00011111111111"},
    {"signbit", "00101010100100"},
    {"logical_not", "00011000000000"},
};
static const long long i8_vals[] = {-128, -127, -1, 0, 2, 7, 8, 127};
static const int_row i8_bin[] = {
    {"add", {0, 1, 127, -128, -126, -121, -120, -1, 1, 2, -128, -127, -125, -120, -119, 0, 127, -128, -2, -1, 1, 6, 7, 126, -128, -127, -1, 0, 2, 7, 8, 127, -126, -125, 1, 2, 4, 9, 10, -127, -121, -120, 6, 7, 9, 14, 15, -122, -120, -119, 7, 8, 10, 15, 16, -121, -1, 0, 126, 127, -127, -122, -121, -2}},
    {"subtract", {0, -1, -127, -128, 126, 121, 120, 1, 1, 0, -126, -127, 127, 122, 121, 2, 127, 126, 0, -1, -3, -8, -9, -128, -128, 127, 1, 0, -2, -7, -8, -127, -126, -127, 3, 2, 0, -5, -6, -125, -121, -122, 8, 7, 5, 0, -1, -120, -120, -121, 9, 8, 6, 1, 0, -119, -1, -2, -128, 127, 125, 120, 119, 0}},
    {"multiply", {0, -128, -128, 0, 0, -128, 0, -128, -128, 1, 127, 0, 2, -121, 8, -1, -128, 127, 1, 0, -2, -7, -8, -127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, -2, 0, 4, 14, 16, -2, -128, -121, -7, 0, 14, 49, 56, 121, 0, 8, -8, 0, 16, 56, 64, -8, -128, -1, -127, 0, -2, 121, -8, 1}},
    {"floor_divide", {1, 1, -128, 0, -64, -19, -16, -2, 0, 1, 127, 0, -64, -19, -16, -1, 0, 0, 1, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -2, 0, 1, 0, 0, 0, -1, -1, -7, 0, 3, 1, 0, 0, -1, -1, -8, 0, 4, 1, 1, 0, -1, -1, -127, 0, 63, 18, 15, 1}},
    {"remainder", {0, -1, 0, 0, 0, 5, 0, 126, -127, 0, 0, 0, 1, 6, 1, 0, -1, -1, 0, 0, 1, 6, 7, 126, 0, 0, 0, 0, 0, 0, 0, 0, -126, -125, 0, 0, 0, 2, 2, 2, -121, -120, 0, 0, 1, 0, 7, 7, -120, -119, 0, 0, 0, 1, 0, 8, -1, 0, 0, 0, 1, 1, 7, 0}},
    {"power", {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, -127, 1, -127, 0, 0, 0, 1, 1, -1, 1, -1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 4, -128, 0, 0, 0, 0, 0, 1, 49, -9, -63, -73, 0, 0, 0, 1, 64, 0, 0, 0, 0, 0, 0, 1, 1, 127, 1, 127}},
    {"left_shift", {0, 0, 0, -128, 0, 0, 0, 0, 0, 0, 0, -127, 4, -128, 0, 0, 0, 0, 0, -1, -4, -128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 8, 0, 0, 0, 0, 0, 0, 7, 28, -128, 0, 0, 0, 0, 0, 8, 32, 0, 0, 0, 0, 0, 0, 127, -4, -128, 0, 0}},
    {"right_shift", {-1, -1, -1, -128, -32, -1, -1, -1, -1, -1, -1, -127, -32, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 7, 1, 0, 0, 0, 0, 0, 0, 8, 2, 0, 0, 0, 0, 0, 0, 127, 31, 0, 0, 0}},
    {"maximum", {-128, -127, -1, 0, 2, 7, 8, 127, -127, -127, -1, 0, 2, 7, 8, 127, -1, -1, -1, 0, 2, 7, 8, 127, 0, 0, 0, 0, 2, 7, 8, 127, 2, 2, 2, 2, 2, 7, 8, 127, 7, 7, 7, 7, 7, 7, 8, 127, 8, 8, 8, 8, 8, 8, 8, 127, 127, 127, 127, 127, 127, 127, 127, 127}},
    {"minimum", {-128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -127, -127, -127, -127, -127, -127, -128, -127, -1, -1, -1, -1, -1, -1, -128, -127, -1, 0, 0, 0, 0, 0, -128, -127, -1, 0, 2, 2, 2, 2, -128, -127, -1, 0, 2, 7, 7, 7, -128, -127, -1, 0, 2, 7, 8, 8, -128, -127, -1, 0, 2, 7, 8, 127}},
    {"bitwise_and", {-128, -128, -128, 0, 0, 0, 0, 0, -128, -127, -127, 0, 0, 1, 0, 1, -128, -127, -1, 0, 2, 7, 8, 127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 2, 0, 2, 0, 1, 7, 0, 2, 7, 0, 7, 0, 0, 8, 0, 0, 0, 8, 8, 0, 1, 127, 0, 2, 7, 8, 127}},
    {"bitwise_or", {-128, -127, -1, -128, -126, -121, -120, -1, -127, -127, -1, -127, -125, -121, -119, -1, -1, -1, -1, -1, -1, -1, -1, -1, -128, -127, -1, 0, 2, 7, 8, 127, -126, -125, -1, 2, 2, 7, 10, 127, -121, -121, -1, 7, 7, 7, 15, 127, -120, -119, -1, 8, 10, 15, 8, 127, -1, -1, -1, 127, 127, 127, 127, 127}},
    {"bitwise_xor", {0, 1, 127, -128, -126, -121, -120, -1, 1, 0, 126, -127, -125, -122, -119, -2, 127, 126, 0, -1, -3, -8, -9, -128, -128, -127, -1, 0, 2, 7, 8, 127, -126, -125, -3, 2, 0, 5, 10, 125, -121, -122, -8, 7, 5, 0, 15, 120, -120, -119, -9, 8, 10, 15, 0, 119, -1, -2, -128, 127, 125, 120, 119, 0}},
};
static const int_row i8_un[] = {
    {"negative", {-128, 127, 1, 0, -2, -7, -8, -127}},
    {"absolute", {-128, 127, 1, 0, 2, 7, 8, 127}},
    {"sign", {-1, -1, -1, 0, 1, 1, 1, 1}},
    {"square", {0, 1, 1, 0, 4, 49, 64, 1}},
    {"reciprocal", {0, 0, -1, 0, 0, 0, 0, 0}},
    {"invert", {127, 126, 0, -1, -3, -8, -9, -128}},
};
static const long long u8_vals[] = {0, 1, 2, 7, 8, 9, 200, 255};
static const int_row u8_bin[] = {
    {"add", {0, 1, 2, 7, 8, 9, 200, 255, 1, 2, 3, 8, 9, 10, 201, 0, 2, 3, 4, 9, 10, 11, 202, 1, 7, 8, 9, 14, 15, 16, 207, 6, 8, 9, 10, 15, 16, 17, 208, 7, 9, 10, 11, 16, 17, 18, 209, 8, 200, 201, 202, 207, 208, 209, 144, 199, 255, 0, 1, 6, 7, 8, 199, 254}},
    {"subtract", {0, 255, 254, 249, 248, 247, 56, 1, 1, 0, 255, 250, 249, 248, 57, 2, 2, 1, 0, 251, 250, 249, 58, 3, 7, 6, 5, 0, 255, 254, 63, 8, 8, 7, 6, 1, 0, 255, 64, 9, 9, 8, 7, 2, 1, 0, 65, 10, 200, 199, 198, 193, 192, 191, 0, 201, 255, 254, 253, 248, 247, 246, 55, 0}},
    {"multiply", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 7, 8, 9, 200, 255, 0, 2, 4, 14, 16, 18, 144, 254, 0, 7, 14, 49, 56, 63, 120, 249, 0, 8, 16, 56, 64, 72, 64, 248, 0, 9, 18, 63, 72, 81, 8, 247, 0, 200, 144, 120, 64, 8, 64, 56, 0, 255, 254, 249, 248, 247, 56, 1}},
    {"floor_divide", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 7, 3, 1, 0, 0, 0, 0, 0, 8, 4, 1, 1, 0, 0, 0, 0, 9, 4, 1, 1, 1, 0, 0, 0, 200, 100, 28, 25, 22, 1, 0, 0, 255, 127, 36, 31, 28, 1, 1}},
    {"remainder", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 2, 2, 2, 2, 2, 0, 0, 1, 0, 7, 7, 7, 7, 0, 0, 0, 1, 0, 8, 8, 8, 0, 0, 1, 2, 1, 0, 9, 9, 0, 0, 0, 4, 0, 2, 0, 200, 0, 0, 1, 3, 7, 3, 55, 0}},
    {"power", {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 128, 0, 0, 0, 0, 1, 7, 49, 247, 193, 71, 193, 183, 1, 8, 64, 0, 0, 0, 0, 0, 1, 9, 81, 121, 65, 73, 65, 57, 1, 200, 64, 0, 0, 0, 0, 0, 1, 255, 1, 255, 1, 255, 1, 255}},
    {"left_shift", {0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 128, 0, 0, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 7, 14, 28, 128, 0, 0, 0, 0, 8, 16, 32, 0, 0, 0, 0, 0, 9, 18, 36, 128, 0, 0, 0, 0, 200, 144, 32, 0, 0, 0, 0, 0, 255, 254, 252, 128, 0, 0, 0, 0}},
    {"right_shift", {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 7, 3, 1, 0, 0, 0, 0, 0, 8, 4, 2, 0, 0, 0, 0, 0, 9, 4, 2, 0, 0, 0, 0, 0, 200, 100, 50, 1, 0, 0, 0, 0, 255, 127, 63, 1, 0, 0, 0, 0}},
    {"maximum", {0, 1, 2, 7, 8, 9, 200, 255, 1, 1, 2, 7, 8, 9, 200, 255, 2, 2, 2, 7, 8, 9, 200, 255, 7, 7, 7, 7, 8, 9, 200, 255, 8, 8, 8, 8, 8, 9, 200, 255, 9, 9, 9, 9, 9, 9, 200, 255, 200, 200, 200, 200, 200, 200, 200, 255, 255, 255, 255, 255, 255, 255, 255, 255}},
    {"minimum", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 2, 2, 2, 2, 2, 2, 0, 1, 2, 7, 7, 7, 7, 7, 0, 1, 2, 7, 8, 8, 8, 8, 0, 1, 2, 7, 8, 9, 9, 9, 0, 1, 2, 7, 8, 9, 200, 200, 0, 1, 2, 7, 8, 9, 200, 255}},
    {"bitwise_and", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 2, 2, 0, 0, 0, 2, 0, 1, 2, 7, 0, 1, 0, 7, 0, 0, 0, 0, 8, 8, 8, 8, 0, 1, 0, 1, 8, 9, 8, 9, 0, 0, 0, 0, 8, 8, 200, 200, 0, 1, 2, 7, 8, 9, 200, 255}},
    {"bitwise_or", {0, 1, 2, 7, 8, 9, 200, 255, 1, 1, 3, 7, 9, 9, 201, 255, 2, 3, 2, 7, 10, 11, 202, 255, 7, 7, 7, 7, 15, 15, 207, 255, 8, 9, 10, 15, 8, 9, 200, 255, 9, 9, 11, 15, 9, 9, 201, 255, 200, 201, 202, 207, 200, 201, 200, 255, 255, 255, 255, 255, 255, 255, 255, 255}},
    {"bitwise_xor", {0, 1, 2, 7, 8, 9, 200, 255, 1, 0, 3, 6, 9, 8, 201, 254, 2, 3, 0, 5, 10, 11, 202, 253, 7, 6, 5, 0, 15, 14, 207, 248, 8, 9, 10, 15, 0, 1, 192, 247, 9, 8, 11, 14, 1, 0, 193, 246, 200, 201, 202, 207, 192, 193, 0, 55, 255, 254, 253, 248, 247, 246, 55, 0}},
};
static const int_row u8_un[] = {
    {"negative", {0, 255, 254, 249, 248, 247, 56, 1}},
    {"absolute", {0, 1, 2, 7, 8, 9, 200, 255}},
    {"sign", {0, 1, 1, 1, 1, 1, 1, 1}},
    {"square", {0, 1, 4, 49, 64, 81, 64, 1}},
    {"reciprocal", {0, 1, 0, 0, 0, 0, 0, 0}},
    {"invert", {255, 254, 253, 248, 247, 246, 55, 0}},
};
static const long long i32_vals[] = {-2147483648, -5, -1, 0, 3, 31, 32, 2147483647};
static const int_row i32_bin[] = {
    {"add", {0, 2147483643, 2147483647, -2147483648, -2147483645, -2147483617, -2147483616, -1, 2147483643, -10, -6, -5, -2, 26, 27, 2147483642, 2147483647, -6, -2, -1, 2, 30, 31, 2147483646, -2147483648, -5, -1, 0, 3, 31, 32, 2147483647, -2147483645, -2, 2, 3, 6, 34, 35, -2147483646, -2147483617, 26, 30, 31, 34, 62, 63, -2147483618, -2147483616, 27, 31, 32, 35, 63, 64, -2147483617, -1, 2147483642, 2147483646, 2147483647, -2147483646, -2147483618, -2147483617, -2}},
    {"subtract", {0, -2147483643, -2147483647, -2147483648, 2147483645, 2147483617, 2147483616, 1, 2147483643, 0, -4, -5, -8, -36, -37, 2147483644, 2147483647, 4, 0, -1, -4, -32, -33, -2147483648, -2147483648, 5, 1, 0, -3, -31, -32, -2147483647, -2147483645, 8, 4, 3, 0, -28, -29, -2147483644, -2147483617, 36, 32, 31, 28, 0, -1, -2147483616, -2147483616, 37, 33, 32, 29, 1, 0, -2147483615, -1, -2147483644, -2147483648, 2147483647, 2147483644, 2147483616, 2147483615, 0}},
    {"multiply", {0, -2147483648, -2147483648, 0, -2147483648, -2147483648, 0, -2147483648, -2147483648, 25, 5, 0, -15, -155, -160, -2147483643, -2147483648, 5, 1, 0, -3, -31, -32, -2147483647, 0, 0, 0, 0, 0, 0, 0, 0, -2147483648, -15, -3, 0, 9, 93, 96, 2147483645, -2147483648, -155, -31, 0, 93, 961, 992, 2147483617, 0, -160, -32, 0, 96, 992, 1024, -32, -2147483648, -2147483643, -2147483647, 0, 2147483645, 2147483617, -32, 1}},
    {"floor_divide", {1, 429496729, -2147483648, 0, -715827883, -69273667, -67108864, -2, 0, 1, 5, 0, -2, -1, -1, -1, 0, 0, 1, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -3, 0, 1, 0, 0, 0, -1, -7, -31, 0, 10, 1, 0, 0, -1, -7, -32, 0, 10, 1, 1, 0, -1, -429496730, -2147483647, 0, 715827882, 69273666, 67108863, 1}},
    {"remainder", {0, -3, 0, 0, 1, 29, 0, 2147483646, -5, 0, 0, 0, 1, 26, 27, 2147483642, -1, -1, 0, 0, 2, 30, 31, 2147483646, 0, 0, 0, 0, 0, 0, 0, 0, -2147483645, -2, 0, 0, 0, 3, 3, 3, -2147483617, -4, 0, 0, 1, 0, 31, 31, -2147483616, -3, 0, 0, 2, 1, 0, 32, -1, -3, 0, 0, 1, 1, 31, 0}},
    {"power", {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, -125, 2128439731, -2052264063, 858993459, 0, 0, 0, 1, -1, -1, 1, -1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 27, 1264544299, -501334399, -1431655765, 0, 0, 0, 1, 29791, -2010103841, 2111290369, -1108378657, 0, 0, 0, 1, 32768, 0, 0, 0, 0, 0, 0, 1, 2147483647, 2147483647, 1, 2147483647}},
    {"left_shift", {0, 0, 0, -2147483648, 0, 0, 0, 0, 0, 0, 0, -5, -40, -2147483648, 0, 0, 0, 0, 0, -1, -8, -2147483648, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 24, -2147483648, 0, 0, 0, 0, 0, 31, 248, -2147483648, 0, 0, 0, 0, 0, 32, 256, 0, 0, 0, 0, 0, 0, 2147483647, -8, -2147483648, 0, 0}},
    {"right_shift", {-1, -1, -1, -2147483648, -268435456, -1, -1, -1, -1, -1, -1, -5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 31, 3, 0, 0, 0, 0, 0, 0, 32, 4, 0, 0, 0, 0, 0, 0, 2147483647, 268435455, 0, 0, 0}},
    {"maximum", {-2147483648, -5, -1, 0, 3, 31, 32, 2147483647, -5, -5, -1, 0, 3, 31, 32, 2147483647, -1, -1, -1, 0, 3, 31, 32, 2147483647, 0, 0, 0, 0, 3, 31, 32, 2147483647, 3, 3, 3, 3, 3, 31, 32, 2147483647, 31, 31, 31, 31, 31, 31, 32, 2147483647, 32, 32, 32, 32, 32, 32, 32, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647}},
    {"minimum", {-2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -5, -5, -5, -5, -5, -5, -5, -2147483648, -5, -1, -1, -1, -1, -1, -1, -2147483648, -5, -1, 0, 0, 0, 0, 0, -2147483648, -5, -1, 0, 3, 3, 3, 3, -2147483648, -5, -1, 0, 3, 31, 31, 31, -2147483648, -5, -1, 0, 3, 31, 32, 32, -2147483648, -5, -1, 0, 3, 31, 32, 2147483647}},
    {"bitwise_and", {-2147483648, -2147483648, -2147483648, 0, 0, 0, 0, 0, -2147483648, -5, -5, 0, 3, 27, 32, 2147483643, -2147483648, -5, -1, 0, 3, 31, 32, 2147483647, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 0, 3, 3, 0, 3, 0, 27, 31, 0, 3, 31, 0, 31, 0, 32, 32, 0, 0, 0, 32, 32, 0, 2147483643, 2147483647, 0, 3, 31, 32, 2147483647}},
    {"bitwise_or", {-2147483648, -5, -1, -2147483648, -2147483645, -2147483617, -2147483616, -1, -5, -5, -1, -5, -5, -1, -5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2147483648, -5, -1, 0, 3, 31, 32, 2147483647, -2147483645, -5, -1, 3, 3, 31, 35, 2147483647, -2147483617, -1, -1, 31, 31, 31, 63, 2147483647, -2147483616, -5, -1, 32, 35, 63, 32, 2147483647, -1, -1, -1, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647}},
    {"bitwise_xor", {0, 2147483643, 2147483647, -2147483648, -2147483645, -2147483617, -2147483616, -1, 2147483643, 0, 4, -5, -8, -28, -37, -2147483644, 2147483647, 4, 0, -1, -4, -32, -33, -2147483648, -2147483648, -5, -1, 0, 3, 31, 32, 2147483647, -2147483645, -8, -4, 3, 0, 28, 35, 2147483644, -2147483617, -28, -32, 31, 28, 0, 63, 2147483616, -2147483616, -37, -33, 32, 35, 63, 0, 2147483615, -1, -2147483644, -2147483648, 2147483647, 2147483644, 2147483616, 2147483615, 0}},
};
static const int_row i32_un[] = {
    {"negative", {-2147483648, 5, 1, 0, -3, -31, -32, -2147483647}},
    {"absolute", {-2147483648, 5, 1, 0, 3, 31, 32, 2147483647}},
    {"sign", {-1, -1, -1, 0, 1, 1, 1, 1}},
    {"square", {0, 25, 1, 0, 9, 961, 1024, 1}},
    {"reciprocal", {0, 0, -1, -2147483648, 0, 0, 0, 0}},
    {"invert", {2147483647, 4, 0, -1, -4, -32, -33, -2147483648}},
};
static const long long i64_vals[] = {(-9223372036854775807LL-1), -5, -1, 0, 3, 63, 64, 9223372036854775807LL};
static const int_row i64_bin[] = {
    {"add", {0, 9223372036854775803LL, 9223372036854775807LL, (-9223372036854775807LL-1), -9223372036854775805LL, -9223372036854775745LL, -9223372036854775744LL, -1, 9223372036854775803LL, -10, -6, -5, -2, 58, 59, 9223372036854775802LL, 9223372036854775807LL, -6, -2, -1, 2, 62, 63, 9223372036854775806LL, (-9223372036854775807LL-1), -5, -1, 0, 3, 63, 64, 9223372036854775807LL, -9223372036854775805LL, -2, 2, 3, 6, 66, 67, -9223372036854775806LL, -9223372036854775745LL, 58, 62, 63, 66, 126, 127, -9223372036854775746LL, -9223372036854775744LL, 59, 63, 64, 67, 127, 128, -9223372036854775745LL, -1, 9223372036854775802LL, 9223372036854775806LL, 9223372036854775807LL, -9223372036854775806LL, -9223372036854775746LL, -9223372036854775745LL, -2}},
    {"subtract", {0, -9223372036854775803LL, -9223372036854775807LL, (-9223372036854775807LL-1), 9223372036854775805LL, 9223372036854775745LL, 9223372036854775744LL, 1, 9223372036854775803LL, 0, -4, -5, -8, -68, -69, 9223372036854775804LL, 9223372036854775807LL, 4, 0, -1, -4, -64, -65, (-9223372036854775807LL-1), (-9223372036854775807LL-1), 5, 1, 0, -3, -63, -64, -9223372036854775807LL, -9223372036854775805LL, 8, 4, 3, 0, -60, -61, -9223372036854775804LL, -9223372036854775745LL, 68, 64, 63, 60, 0, -1, -9223372036854775744LL, -9223372036854775744LL, 69, 65, 64, 61, 1, 0, -9223372036854775743LL, -1, -9223372036854775804LL, (-9223372036854775807LL-1), 9223372036854775807LL, 9223372036854775804LL, 9223372036854775744LL, 9223372036854775743LL, 0}},
    {"multiply", {0, (-9223372036854775807LL-1), (-9223372036854775807LL-1), 0, (-9223372036854775807LL-1), (-9223372036854775807LL-1), 0, (-9223372036854775807LL-1), (-9223372036854775807LL-1), 25, 5, 0, -15, -315, -320, -9223372036854775803LL, (-9223372036854775807LL-1), 5, 1, 0, -3, -63, -64, -9223372036854775807LL, 0, 0, 0, 0, 0, 0, 0, 0, (-9223372036854775807LL-1), -15, -3, 0, 9, 189, 192, 9223372036854775805LL, (-9223372036854775807LL-1), -315, -63, 0, 189, 3969, 4032, 9223372036854775745LL, 0, -320, -64, 0, 192, 4032, 4096, -64, (-9223372036854775807LL-1), -9223372036854775803LL, -9223372036854775807LL, 0, 9223372036854775805LL, 9223372036854775745LL, -64, 1}},
    {"floor_divide", {1, 1844674407370955161LL, (-9223372036854775807LL-1), 0, -3074457345618258603LL, -146402730743726601LL, -144115188075855872LL, -2, 0, 1, 5, 0, -2, -1, -1, -1, 0, 0, 1, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -3, 0, 1, 0, 0, 0, -1, -13, -63, 0, 21, 1, 0, 0, -1, -13, -64, 0, 21, 1, 1, 0, -1, -1844674407370955162LL, -9223372036854775807LL, 0, 3074457345618258602LL, 146402730743726600LL, 144115188075855871LL, 1}},
    {"remainder", {0, -3, 0, 0, 1, 55, 0, 9223372036854775806LL, -5, 0, 0, 0, 1, 58, 59, 9223372036854775802LL, -1, -1, 0, 0, 2, 62, 63, 9223372036854775806LL, 0, 0, 0, 0, 0, 0, 0, 0, -9223372036854775805LL, -2, 0, 0, 0, 3, 3, 3, -9223372036854775745LL, -2, 0, 0, 0, 0, 63, 63, -9223372036854775744LL, -1, 0, 0, 1, 1, 0, 64, -1, -3, 0, 0, 1, 7, 63, 0}},
    {"power", {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, -125, 5790225837517463603LL, 7942358959831785217LL, 3689348814741910323LL, 0, 0, 0, 1, -1, -1, 1, -1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 27, -3237885987332494933LL, 8733086111712066817LL, -6148914691236517205LL, 0, 0, 0, 1, 250047, -4675932718989443137LL, 564143883017908225LL, -1171221845949812801LL, 0, 0, 0, 1, 262144, 0, 0, 0, 0, 0, 0, 1, 9223372036854775807LL, 9223372036854775807LL, 1, 9223372036854775807LL}},
    {"left_shift", {0, 0, 0, (-9223372036854775807LL-1), 0, 0, 0, 0, 0, 0, 0, -5, -40, (-9223372036854775807LL-1), 0, 0, 0, 0, 0, -1, -8, (-9223372036854775807LL-1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 24, (-9223372036854775807LL-1), 0, 0, 0, 0, 0, 63, 504, (-9223372036854775807LL-1), 0, 0, 0, 0, 0, 64, 512, 0, 0, 0, 0, 0, 0, 9223372036854775807LL, -8, (-9223372036854775807LL-1), 0, 0}},
    {"right_shift", {-1, -1, -1, (-9223372036854775807LL-1), -1152921504606846976LL, -1, -1, -1, -1, -1, -1, -5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 63, 7, 0, 0, 0, 0, 0, 0, 64, 8, 0, 0, 0, 0, 0, 0, 9223372036854775807LL, 1152921504606846975LL, 0, 0, 0}},
    {"maximum", {(-9223372036854775807LL-1), -5, -1, 0, 3, 63, 64, 9223372036854775807LL, -5, -5, -1, 0, 3, 63, 64, 9223372036854775807LL, -1, -1, -1, 0, 3, 63, 64, 9223372036854775807LL, 0, 0, 0, 0, 3, 63, 64, 9223372036854775807LL, 3, 3, 3, 3, 3, 63, 64, 9223372036854775807LL, 63, 63, 63, 63, 63, 63, 64, 9223372036854775807LL, 64, 64, 64, 64, 64, 64, 64, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL}},
    {"minimum", {(-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), -5, -5, -5, -5, -5, -5, -5, (-9223372036854775807LL-1), -5, -1, -1, -1, -1, -1, -1, (-9223372036854775807LL-1), -5, -1, 0, 0, 0, 0, 0, (-9223372036854775807LL-1), -5, -1, 0, 3, 3, 3, 3, (-9223372036854775807LL-1), -5, -1, 0, 3, 63, 63, 63, (-9223372036854775807LL-1), -5, -1, 0, 3, 63, 64, 64, (-9223372036854775807LL-1), -5, -1, 0, 3, 63, 64, 9223372036854775807LL}},
    {"bitwise_and", {(-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), 0, 0, 0, 0, 0, (-9223372036854775807LL-1), -5, -5, 0, 3, 59, 64, 9223372036854775803LL, (-9223372036854775807LL-1), -5, -1, 0, 3, 63, 64, 9223372036854775807LL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 0, 3, 3, 0, 3, 0, 59, 63, 0, 3, 63, 0, 63, 0, 64, 64, 0, 0, 0, 64, 64, 0, 9223372036854775803LL, 9223372036854775807LL, 0, 3, 63, 64, 9223372036854775807LL}},
    {"bitwise_or", {(-9223372036854775807LL-1), -5, -1, (-9223372036854775807LL-1), -9223372036854775805LL, -9223372036854775745LL, -9223372036854775744LL, -1, -5, -5, -1, -5, -5, -1, -5, -1, -1, -1, -1, -1, -1, -1, -1, -1, (-9223372036854775807LL-1), -5, -1, 0, 3, 63, 64, 9223372036854775807LL, -9223372036854775805LL, -5, -1, 3, 3, 63, 67, 9223372036854775807LL, -9223372036854775745LL, -1, -1, 63, 63, 63, 127, 9223372036854775807LL, -9223372036854775744LL, -5, -1, 64, 67, 127, 64, 9223372036854775807LL, -1, -1, -1, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL}},
    {"bitwise_xor", {0, 9223372036854775803LL, 9223372036854775807LL, (-9223372036854775807LL-1), -9223372036854775805LL, -9223372036854775745LL, -9223372036854775744LL, -1, 9223372036854775803LL, 0, 4, -5, -8, -60, -69, -9223372036854775804LL, 9223372036854775807LL, 4, 0, -1, -4, -64, -65, (-9223372036854775807LL-1), (-9223372036854775807LL-1), -5, -1, 0, 3, 63, 64, 9223372036854775807LL, -9223372036854775805LL, -8, -4, 3, 0, 60, 67, 9223372036854775804LL, -9223372036854775745LL, -60, -64, 63, 60, 0, 127, 9223372036854775744LL, -9223372036854775744LL, -69, -65, 64, 67, 127, 0, 9223372036854775743LL, -1, -9223372036854775804LL, (-9223372036854775807LL-1), 9223372036854775807LL, 9223372036854775804LL, 9223372036854775744LL, 9223372036854775743LL, 0}},
};
static const int_row i64_un[] = {
    {"negative", {(-9223372036854775807LL-1), 5, 1, 0, -3, -63, -64, -9223372036854775807LL}},
    {"absolute", {(-9223372036854775807LL-1), 5, 1, 0, 3, 63, 64, 9223372036854775807LL}},
    {"sign", {-1, -1, -1, 0, 1, 1, 1, 1}},
    {"square", {0, 25, 1, 0, 9, 3969, 4096, 1}},
    {"reciprocal", {0, 0, -1, (-9223372036854775807LL-1), 0, 0, 0, 0}},
    {"invert", {9223372036854775807LL, 4, 0, -1, -4, -64, -65, (-9223372036854775807LL-1)}},
};
static const long long u64_vals[] = {0, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), -1};
static const int_row u64_bin[] = {
    {"add", {0, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), -1, 1, 2, 4, 64, 65, 66, -9223372036854775807LL, 0, 3, 4, 6, 66, 67, 68, -9223372036854775805LL, 2, 63, 64, 66, 126, 127, 128, -9223372036854775745LL, 62, 64, 65, 67, 127, 128, 129, -9223372036854775744LL, 63, 65, 66, 68, 128, 129, 130, -9223372036854775743LL, 64, (-9223372036854775807LL-1), -9223372036854775807LL, -9223372036854775805LL, -9223372036854775745LL, -9223372036854775744LL, -9223372036854775743LL, 0, 9223372036854775807LL, -1, 0, 2, 62, 63, 64, 9223372036854775807LL, -2}},
    {"subtract", {0, -1, -3, -63, -64, -65, (-9223372036854775807LL-1), 1, 1, 0, -2, -62, -63, -64, -9223372036854775807LL, 2, 3, 2, 0, -60, -61, -62, -9223372036854775805LL, 4, 63, 62, 60, 0, -1, -2, -9223372036854775745LL, 64, 64, 63, 61, 1, 0, -1, -9223372036854775744LL, 65, 65, 64, 62, 2, 1, 0, -9223372036854775743LL, 66, (-9223372036854775807LL-1), 9223372036854775807LL, 9223372036854775805LL, 9223372036854775745LL, 9223372036854775744LL, 9223372036854775743LL, 0, -9223372036854775807LL, -1, -2, -4, -64, -65, -66, 9223372036854775807LL, 0}},
    {"multiply", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), -1, 0, 3, 9, 189, 192, 195, (-9223372036854775807LL-1), -3, 0, 63, 189, 3969, 4032, 4095, (-9223372036854775807LL-1), -63, 0, 64, 192, 4032, 4096, 4160, 0, -64, 0, 65, 195, 4095, 4160, 4225, (-9223372036854775807LL-1), -65, 0, (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), 0, (-9223372036854775807LL-1), 0, (-9223372036854775807LL-1), 0, -1, -3, -63, -64, -65, (-9223372036854775807LL-1), 1}},
    {"floor_divide", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 63, 21, 1, 0, 0, 0, 0, 0, 64, 21, 1, 1, 0, 0, 0, 0, 65, 21, 1, 1, 1, 0, 0, 0, (-9223372036854775807LL-1), 3074457345618258602LL, 146402730743726600LL, 144115188075855872LL, 141898031336227320LL, 1, 0, 0, -1, 6148914691236517205LL, 292805461487453200LL, 288230376151711743LL, 283796062672454640LL, 1, 1}},
    {"remainder", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 3, 3, 3, 3, 3, 0, 0, 0, 0, 63, 63, 63, 63, 0, 0, 1, 1, 0, 64, 64, 64, 0, 0, 2, 2, 1, 0, 65, 65, 0, 0, 2, 8, 0, 8, 0, (-9223372036854775807LL-1), 0, 0, 0, 15, 63, 15, 9223372036854775807LL, 0}},
    {"power", {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 27, -3237885987332494933LL, 8733086111712066817LL, 7752514261426648835LL, 1, -6148914691236517205LL, 1, 63, 250047, -4675932718989443137LL, 564143883017908225LL, -1352423517290885057LL, 1, -1171221845949812801LL, 1, 64, 262144, 0, 0, 0, 0, 0, 1, 65, 274625, -4717986506282229823LL, 6925526344717438977LL, 7437354637604294721LL, 1, 1135184250689818561LL, 1, (-9223372036854775807LL-1), 0, 0, 0, 0, 0, 0, 1, -1, -1, -1, 1, -1, 1, -1}},
    {"left_shift", {0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 8, (-9223372036854775807LL-1), 0, 0, 0, 0, 3, 6, 24, (-9223372036854775807LL-1), 0, 0, 0, 0, 63, 126, 504, (-9223372036854775807LL-1), 0, 0, 0, 0, 64, 128, 512, 0, 0, 0, 0, 0, 65, 130, 520, (-9223372036854775807LL-1), 0, 0, 0, 0, (-9223372036854775807LL-1), 0, 0, 0, 0, 0, 0, 0, -1, -2, -8, (-9223372036854775807LL-1), 0, 0, 0, 0}},
    {"right_shift", {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 63, 31, 7, 0, 0, 0, 0, 0, 64, 32, 8, 0, 0, 0, 0, 0, 65, 32, 8, 0, 0, 0, 0, 0, (-9223372036854775807LL-1), 4611686018427387904LL, 1152921504606846976LL, 1, 0, 0, 0, 0, -1, 9223372036854775807LL, 2305843009213693951LL, 1, 0, 0, 0, 0}},
    {"maximum", {0, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), -1, 1, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), -1, 3, 3, 3, 63, 64, 65, (-9223372036854775807LL-1), -1, 63, 63, 63, 63, 64, 65, (-9223372036854775807LL-1), -1, 64, 64, 64, 64, 64, 65, (-9223372036854775807LL-1), -1, 65, 65, 65, 65, 65, 65, (-9223372036854775807LL-1), -1, (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), (-9223372036854775807LL-1), -1, -1, -1, -1, -1, -1, -1, -1, -1}},
    {"minimum", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 3, 3, 3, 3, 3, 3, 0, 1, 3, 63, 63, 63, 63, 63, 0, 1, 3, 63, 64, 64, 64, 64, 0, 1, 3, 63, 64, 65, 65, 65, 0, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), (-9223372036854775807LL-1), 0, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), -1}},
    {"bitwise_and", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 3, 3, 0, 1, 0, 3, 0, 1, 3, 63, 0, 1, 0, 63, 0, 0, 0, 0, 64, 64, 0, 64, 0, 1, 1, 1, 64, 65, 0, 65, 0, 0, 0, 0, 0, 0, (-9223372036854775807LL-1), (-9223372036854775807LL-1), 0, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), -1}},
    {"bitwise_or", {0, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), -1, 1, 1, 3, 63, 65, 65, -9223372036854775807LL, -1, 3, 3, 3, 63, 67, 67, -9223372036854775805LL, -1, 63, 63, 63, 63, 127, 127, -9223372036854775745LL, -1, 64, 65, 67, 127, 64, 65, -9223372036854775744LL, -1, 65, 65, 67, 127, 65, 65, -9223372036854775743LL, -1, (-9223372036854775807LL-1), -9223372036854775807LL, -9223372036854775805LL, -9223372036854775745LL, -9223372036854775744LL, -9223372036854775743LL, (-9223372036854775807LL-1), -1, -1, -1, -1, -1, -1, -1, -1, -1}},
    {"bitwise_xor", {0, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), -1, 1, 0, 2, 62, 65, 64, -9223372036854775807LL, -2, 3, 2, 0, 60, 67, 66, -9223372036854775805LL, -4, 63, 62, 60, 0, 127, 126, -9223372036854775745LL, -64, 64, 65, 67, 127, 0, 1, -9223372036854775744LL, -65, 65, 64, 66, 126, 1, 0, -9223372036854775743LL, -66, (-9223372036854775807LL-1), -9223372036854775807LL, -9223372036854775805LL, -9223372036854775745LL, -9223372036854775744LL, -9223372036854775743LL, 0, 9223372036854775807LL, -1, -2, -4, -64, -65, -66, 9223372036854775807LL, 0}},
};
static const int_row u64_un[] = {
    {"negative", {0, -1, -3, -63, -64, -65, (-9223372036854775807LL-1), 1}},
    {"absolute", {0, 1, 3, 63, 64, 65, (-9223372036854775807LL-1), -1}},
    {"sign", {0, 1, 1, 1, 1, 1, 1, 1}},
    {"square", {0, 1, 9, 3969, 4096, 4225, 0, 1}},
    {"reciprocal", {0, 1, 0, 0, 0, 0, 0, 0}},
    {"invert", {-1, -2, -4, -64, -65, -66, 9223372036854775807LL, 0}},
};
static const double cplx_vals[8][2] = {{0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}};
static const cplx_row c128_bin[] = {
    {"add", 1, {{0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {1.0, 0.0}, {2.0, 0.0}, {0.0, 0.0}, {1.0, 1.0}, {1.0, -1.0}, {3.5, -1.0}, {-2.0, 4.0}, {1.5, 0.25}, {-1.0, 0.0}, {0.0, 0.0}, {-2.0, 0.0}, {-1.0, 1.0}, {-1.0, -1.0}, {1.5, -1.0}, {-4.0, 4.0}, {-0.5, 0.25}, {0.0, 1.0}, {1.0, 1.0}, {-1.0, 1.0}, {0.0, 2.0}, {0.0, 0.0}, {2.5, 0.0}, {-3.0, 5.0}, {0.5, 1.25}, {0.0, -1.0}, {1.0, -1.0}, {-1.0, -1.0}, {0.0, 0.0}, {-0.0, -2.0}, {2.5, -2.0}, {-3.0, 3.0}, {0.5, -0.75}, {2.5, -1.0}, {3.5, -1.0}, {1.5, -1.0}, {2.5, 0.0}, {2.5, -2.0}, {5.0, -2.0}, {-0.5, 3.0}, {3.0, -0.75}, {-3.0, 4.0}, {-2.0, 4.0}, {-4.0, 4.0}, {-3.0, 5.0}, {-3.0, 3.0}, {-0.5, 3.0}, {-6.0, 8.0}, {-2.5, 4.25}, {0.5, 0.25}, {1.5, 0.25}, {-0.5, 0.25}, {0.5, 1.25}, {0.5, -0.75}, {3.0, -0.75}, {-2.5, 4.25}, {1.0, 0.5}}},
    {"subtract", 1, {{0.0, 0.0}, {-1.0, 0.0}, {1.0, 0.0}, {0.0, -1.0}, {0.0, 1.0}, {-2.5, 1.0}, {3.0, -4.0}, {-0.5, -0.25}, {1.0, 0.0}, {0.0, 0.0}, {2.0, 0.0}, {1.0, -1.0}, {1.0, 1.0}, {-1.5, 1.0}, {4.0, -4.0}, {0.5, -0.25}, {-1.0, 0.0}, {-2.0, 0.0}, {0.0, 0.0}, {-1.0, -1.0}, {-1.0, 1.0}, {-3.5, 1.0}, {2.0, -4.0}, {-1.5, -0.25}, {0.0, 1.0}, {-1.0, 1.0}, {1.0, 1.0}, {0.0, 0.0}, {0.0, 2.0}, {-2.5, 2.0}, {3.0, -3.0}, {-0.5, 0.75}, {-0.0, -1.0}, {-1.0, -1.0}, {1.0, -1.0}, {-0.0, -2.0}, {0.0, 0.0}, {-2.5, 0.0}, {3.0, -5.0}, {-0.5, -1.25}, {2.5, -1.0}, {1.5, -1.0}, {3.5, -1.0}, {2.5, -2.0}, {2.5, 0.0}, {0.0, 0.0}, {5.5, -5.0}, {2.0, -1.25}, {-3.0, 4.0}, {-4.0, 4.0}, {-2.0, 4.0}, {-3.0, 3.0}, {-3.0, 5.0}, {-5.5, 5.0}, {0.0, 0.0}, {-3.5, 3.75}, {0.5, 0.25}, {-0.5, 0.25}, {1.5, 0.25}, {0.5, -0.75}, {0.5, 1.25}, {-2.0, 1.25}, {3.5, -3.75}, {0.0, 0.0}}},
    {"multiply", 1, {{0.0, 0.0}, {0.0, 0.0}, {-0.0, 0.0}, {0.0, 0.0}, {0.0, -0.0}, {0.0, 0.0}, {-0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {-0.0, 0.0}, {-1.0, 0.0}, {1.0, -0.0}, {-0.0, -1.0}, {0.0, 1.0}, {-2.5, 1.0}, {3.0, -4.0}, {-0.5, -0.25}, {0.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {-1.0, 0.0}, {1.0, -0.0}, {1.0, 2.5}, {-4.0, -3.0}, {-0.25, 0.5}, {0.0, -0.0}, {0.0, -1.0}, {0.0, 1.0}, {1.0, -0.0}, {-1.0, 0.0}, {-1.0, -2.5}, {4.0, 3.0}, {0.25, -0.5}, {0.0, 0.0}, {2.5, -1.0}, {-2.5, 1.0}, {1.0, 2.5}, {-1.0, -2.5}, {5.25, -5.0}, {-3.5, 13.0}, {1.5, 0.125}, {-0.0, 0.0}, {-3.0, 4.0}, {3.0, -4.0}, {-4.0, -3.0}, {4.0, 3.0}, {-3.5, 13.0}, {-7.0, -24.0}, {-2.5, 1.25}, {0.0, 0.0}, {0.5, 0.25}, {-0.5, -0.25}, {-0.25, 0.5}, {0.25, -0.5}, {1.5, 0.125}, {-2.5, 1.25}, {0.1875, 0.25}}},
    {"true_divide", 0, {{NAN, NAN}, {0.0, 0.0}, {-0.0, -0.0}, {0.0, 0.0}, {-0.0, -0.0}, {0.0, 0.0}, {0.0, -0.0}, {0.0, 0.0}, {INFINITY, NAN}, {1.0, 0.0}, {-1.0, -0.0}, {0.0, -1.0}, {-0.0, 1.0}, {0.3448275862068966, 0.13793103448275865}, {-0.12, -0.16}, {1.6, -0.8}, {-INFINITY, NAN}, {-1.0, 0.0}, {1.0, -0.0}, {0.0, 1.0}, {-0.0, -1.0}, {-0.3448275862068966, -0.13793103448275865}, {0.12, 0.16}, {-1.6, 0.8}, {NAN, INFINITY}, {0.0, 1.0}, {-0.0, -1.0}, {1.0, 0.0}, {-1.0, -0.0}, {-0.13793103448275865, 0.3448275862068966}, {0.16, -0.12}, {0.8, 1.6}, {NAN, -INFINITY}, {-0.0, -1.0}, {-0.0, 1.0}, {-1.0, 0.0}, {1.0, -0.0}, {0.13793103448275865, -0.3448275862068966}, {-0.16, 0.12}, {-0.8, -1.6}, {INFINITY, -INFINITY}, {2.5, -1.0}, {-2.5, 1.0}, {-1.0, -2.5}, {1.0, 2.5}, {1.0, 0.0}, {-0.46, -0.28}, {3.2, -3.6}, {-INFINITY, INFINITY}, {-3.0, 4.0}, {3.0, -4.0}, {4.0, 3.0}, {-4.0, -3.0}, {-1.5862068965517242, 0.9655172413793104}, {1.0, 0.0}, {-1.6, 8.8}, {INFINITY, INFINITY}, {0.5, 0.25}, {-0.5, -0.25}, {0.25, -0.5}, {-0.25, 0.5}, {0.13793103448275865, 0.15517241379310345}, {-0.02, -0.11}, {1.0, 0.0}}},
    {"power", 0, {{1.0, 0.0}, {0.0, 0.0}, {NAN, NAN}, {NAN, NAN}, {NAN, NAN}, {0.0, 0.0}, {NAN, NAN}, {0.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, -0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {-1.0, -0.0}, {0.04321391826377226, 0.0}, {23.140692632779267, -0.0}, {7.084793790696467e-15, 23.140692632779267}, {-3.4873423562089973e-06, -1.2812287962187011e-21}, {2.791815843889321e-17, 0.45593812776599624}, {1.0, 0.0}, {0.0, 1.0}, {0.0, -1.0}, {0.20787957635076193, 0.0}, {4.810477380965351, -0.0}, {-3.4015211768251037, -3.401521176825103}, {-3.4304366459657674e-19, 0.0018674427317079893}, {0.47746106006982203, 0.4774610600698219}, {1.0, 0.0}, {-0.0, -1.0}, {-0.0, 1.0}, {4.810477380965351, 0.0}, {0.20787957635076193, 0.0}, {-0.14699305810781044, 0.1469930581078104}, {-9.8368221286278e-14, -535.4916555247646}, {1.0472058180553658, -1.0472058180553656}, {1.0, 0.0}, {2.5, -1.0}, {0.3448275862068966, 0.13793103448275865}, {0.8021345548986835, 1.2235289214254903}, {0.3747516776749794, -0.5716241909637909}, {-2.947831088459024, -7.57836333342099}, {0.08947348905022984, -0.21696850653708882}, {1.8016993176921277, 0.10348064635825546}, {1.0, 0.0}, {-3.0, 4.0}, {-0.12, -0.16}, {-0.0042197789059243585, 0.10914868894792414}, {-0.35367471477739926, -9.148140765808197}, {-362.1300124065851, -361.63413223659467}, {1.1149577108886818e-06, -2.3198652950130632e-07}, {0.07873633041883978, 1.2830823933621052}, {1.0, 0.0}, {0.5, 0.25}, {1.6, -0.8}, {0.525578904099397, -0.3455273538514948}, {1.3284864259471645, 0.8733767580944277}, {-0.0628086255999101, 0.36612020928008454}, {-0.7515614457453166, 0.4877418894777618}, {0.6633587509551294, 0.05747725816996553}}},
    {"maximum", 1, {{0.0, 0.0}, {1.0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, {0.0, 0.0}, {2.5, -1.0}, {0.0, 0.0}, {0.5, 0.25}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {2.5, -1.0}, {1.0, 0.0}, {1.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-1.0, 0.0}, {0.5, 0.25}, {0.0, 1.0}, {1.0, 0.0}, {0.0, 1.0}, {0.0, 1.0}, {0.0, 1.0}, {2.5, -1.0}, {0.0, 1.0}, {0.5, 0.25}, {0.0, 0.0}, {1.0, 0.0}, {-0.0, -1.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-0.0, -1.0}, {0.5, 0.25}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {0.5, 0.25}, {1.0, 0.0}, {0.5, 0.25}, {0.5, 0.25}, {0.5, 0.25}, {2.5, -1.0}, {0.5, 0.25}, {0.5, 0.25}}},
    {"minimum", 1, {{0.0, 0.0}, {0.0, 0.0}, {-1.0, 0.0}, {0.0, 0.0}, {-0.0, -1.0}, {0.0, 0.0}, {-3.0, 4.0}, {0.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {1.0, 0.0}, {-3.0, 4.0}, {0.5, 0.25}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-3.0, 4.0}, {-1.0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {0.0, 1.0}, {-3.0, 4.0}, {0.0, 1.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-1.0, 0.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-3.0, 4.0}, {-0.0, -1.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {0.0, 0.0}, {0.5, 0.25}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {0.5, 0.25}, {-3.0, 4.0}, {0.5, 0.25}}},
    {"fmax", 1, {{0.0, 0.0}, {1.0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, {0.0, 0.0}, {2.5, -1.0}, {0.0, 0.0}, {0.5, 0.25}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {2.5, -1.0}, {1.0, 0.0}, {1.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-1.0, 0.0}, {0.5, 0.25}, {0.0, 1.0}, {1.0, 0.0}, {0.0, 1.0}, {0.0, 1.0}, {0.0, 1.0}, {2.5, -1.0}, {0.0, 1.0}, {0.5, 0.25}, {0.0, 0.0}, {1.0, 0.0}, {-0.0, -1.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-0.0, -1.0}, {0.5, 0.25}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {0.5, 0.25}, {1.0, 0.0}, {0.5, 0.25}, {0.5, 0.25}, {0.5, 0.25}, {2.5, -1.0}, {0.5, 0.25}, {0.5, 0.25}}},
    {"fmin", 1, {{0.0, 0.0}, {0.0, 0.0}, {-1.0, 0.0}, {0.0, 0.0}, {-0.0, -1.0}, {0.0, 0.0}, {-3.0, 4.0}, {0.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {1.0, 0.0}, {-3.0, 4.0}, {0.5, 0.25}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-3.0, 4.0}, {-1.0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {0.0, 1.0}, {-3.0, 4.0}, {0.0, 1.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-1.0, 0.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-3.0, 4.0}, {-0.0, -1.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {0.0, 0.0}, {0.5, 0.25}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {0.5, 0.25}, {-3.0, 4.0}, {0.5, 0.25}}},
};
static const bool_row c128_binb[] = {
    {"equal", "1000000001000000001000000001000000001000000001000000001000000001"},
    {"not_equal", "0111111110111111110111111110111111110111111110111111110111111110"},
    {"less", "0101010100000100110111010100010111010101000000001111110101000100"},
    {"less_equal", "1101010101000100111111010101010111011101000001001111111101000101"},
    {"greater", "0010101010111011000000101010101000100010111110110000000010111010"},
    {"greater_equal", "1010101011111011001000101011101000101010111111110000001010111011"},
    {"logical_and", "0000000001111111011111110111111101111111011111110111111101111111"},
};
static const cplx_row c128_un[] = {
    {"negative", 1, {{-0.0, -0.0}, {-1.0, -0.0}, {1.0, -0.0}, {-0.0, -1.0}, {0.0, 1.0}, {-2.5, 1.0}, {3.0, -4.0}, {-0.5, -0.25}}},
    {"sign", 0, {{0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {0.9284766908852594, -0.3713906763541037}, {-0.6, 0.8}, {0.8944271909999159, 0.4472135954999579}}},
    {"square", 1, {{0.0, 0.0}, {1.0, 0.0}, {1.0, -0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {5.25, -5.0}, {-7.0, -24.0}, {0.1875, 0.25}}},
    {"sqrt", 0, {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}, {0.7071067811865476, 0.7071067811865476}, {0.7071067811865476, -0.7071067811865476}, {1.6113010897357534, -0.31030823673184377}, {1.0, 2.0}, {0.7276733451126774, 0.17178037486125622}}},
    {"reciprocal", 0, {{NAN, NAN}, {1.0, -0.0}, {-1.0, -0.0}, {0.0, -1.0}, {-0.0, 1.0}, {0.3448275862068966, 0.13793103448275862}, {-0.12, -0.16}, {1.6, -0.8}}},
    {"exp", 0, {{1.0, 0.0}, {2.718281828459045, 0.0}, {0.36787944117144233, 0.0}, {0.5403023058681398, 0.8414709848078965}, {0.5403023058681398, -0.8414709848078965}, {6.5822295781927735, -10.251215190529404}, {-0.032542999640154786, -0.03767897757486585}, {1.5974665191199127, 0.4079001700783598}}},
    {"exp2", 0, {{1.0, 0.0}, {2.0, 0.0}, {0.5, 0.0}, {0.7692389013639721, 0.6389612763136348}, {0.7692389013639721, -0.6389612763136348}, {4.351472348055636, -3.61451081117586}, {-0.11658588460450892, 0.045085823836147634}, {1.3930334183655622, 0.24383989689293284}}},
    {"expm1", 0, {{0.0, 0.0}, {1.718281828459045, 0.0}, {-0.6321205588285577, 0.0}, {-0.4596976941318603, 0.8414709848078965}, {-0.4596976941318603, -0.8414709848078965}, {5.582229578192773, -10.251215190529404}, {-1.032542999640155, -0.03767897757486585}, {0.5974665191199127, 0.4079001700783598}}},
    {"log", 0, {{-INFINITY, 0.0}, {0.0, 0.0}, {0.0, 3.141592653589793}, {0.0, 1.5707963267948966}, {0.0, -1.5707963267948966}, {0.9905007344332917, -0.3805063771123649}, {1.6094379124341003, 2.214297435588181}, {-0.5815754049028404, 0.4636476090008061}}},
    {"log2", 0, {{-INFINITY, 0.0}, {0.0, 0.0}, {0.0, 4.532360141827193}, {0.0, 2.2661800709135966}, {0.0, -2.2661800709135966}, {1.428990497563786, -0.5489546632866346}, {2.321928094887362, 3.194555929376217}, {-0.8390359525563188, 0.6689021062254881}}},
    {"log10", 0, {{-INFINITY, 0.0}, {0.0, 0.0}, {0.0, 1.3643763538418412}, {0.0, 0.6821881769209206}, {0.0, -0.6821881769209206}, {0.43016900328549684, -0.16525181990889787}, {0.6989700043360187, 0.9616571575684681}, {-0.25257498915995297, 0.20135959813668655}}},
    {"log1p", 0, {{0.0, 0.0}, {0.6931471805599453, 0.0}, {-INFINITY, 0.0}, {0.3465735902799727, 0.7853981633974483}, {0.3465735902799727, -0.7853981633974483}, {1.2919987762161156, -0.27829965900511133}, {1.4978661367769956, 2.0344439357957027}, {0.41916459520222155, 0.16514867741462683}}},
    {"sin", 0, {{0.0, 0.0}, {0.8414709848078965, 0.0}, {-0.8414709848078965, 0.0}, {0.0, 1.1752011936438014}, {-0.0, -1.1752011936438014}, {0.9234907760431733, 0.9415049332708672}, {-3.853738037919377, -27.016813258003932}, {0.494485780933195, 0.22168816414957482}}},
    {"cos", 0, {{1.0, -0.0}, {0.5403023058681398, -0.0}, {0.5403023058681398, 0.0}, {1.5430806348152437, -0.0}, {1.5430806348152437, -0.0}, {-1.236229198856342, 0.7033251781135349}, {-27.034945603074224, 3.851153334811777}, {0.9051501505596068, -0.12110879604381165}}},
    {"tan", 0, {{0.0, 0.0}, {1.557407724654902, 0.0}, {-1.557407724654902, 0.0}, {0.0, 0.7615941559557649}, {-0.0, -0.7615941559557649}, {-0.23701383091627065, -0.8964379171278618}, {0.00018734620462947845, 0.9993559873814732}, {0.504500702698564, 0.3124206925025888}}},
    {"sinh", 0, {{0.0, 0.0}, {1.1752011936438014, 0.0}, {-1.1752011936438014, 0.0}, {0.0, 0.8414709848078965}, {-0.0, -0.8414709848078965}, {3.268939432079549, -5.160143667579705}, {6.5481200409110025, -7.61923172032141}, {0.504895714387995, 0.2789791283502615}}},
    {"cosh", 0, {{1.0, 0.0}, {1.5430806348152437, 0.0}, {1.5430806348152437, -0.0}, {0.5403023058681398, 0.0}, {0.5403023058681398, 0.0}, {3.3132901461132245, -5.091071522949698}, {-6.580663040551157, 7.581552742746545}, {1.0925708047319176, 0.12892104172809826}}},
    {"tanh", 0, {{0.0, 0.0}, {0.7615941559557649, 0.0}, {-0.7615941559557649, 0.0}, {0.0, 1.557407724654902}, {-0.0, -1.557407724654902}, {1.00554801189506, -0.012322138255828355}, {-1.000709536067233, 0.0049082580674960595}, {0.4854872810241353, 0.19805544995134955}}},
    {"rint", 1, {{0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.0, -1.0}, {-3.0, 4.0}, {0.0, 0.0}}},
    {"conjugate", 1, {{0.0, -0.0}, {1.0, -0.0}, {-1.0, -0.0}, {0.0, -1.0}, {-0.0, 1.0}, {2.5, 1.0}, {-3.0, -4.0}, {0.5, -0.25}}},
    {"absolute", 0, {{0.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {2.692582403567252, 0.0}, {5.0, 0.0}, {0.5590169943749475, 0.0}}},
};
static const cplx_row c64_bin[] = {
    {"add", 1, {{0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {1.0, 0.0}, {2.0, 0.0}, {0.0, 0.0}, {1.0, 1.0}, {1.0, -1.0}, {3.5, -1.0}, {-2.0, 4.0}, {1.5, 0.25}, {-1.0, 0.0}, {0.0, 0.0}, {-2.0, 0.0}, {-1.0, 1.0}, {-1.0, -1.0}, {1.5, -1.0}, {-4.0, 4.0}, {-0.5, 0.25}, {0.0, 1.0}, {1.0, 1.0}, {-1.0, 1.0}, {0.0, 2.0}, {0.0, 0.0}, {2.5, 0.0}, {-3.0, 5.0}, {0.5, 1.25}, {0.0, -1.0}, {1.0, -1.0}, {-1.0, -1.0}, {0.0, 0.0}, {-0.0, -2.0}, {2.5, -2.0}, {-3.0, 3.0}, {0.5, -0.75}, {2.5, -1.0}, {3.5, -1.0}, {1.5, -1.0}, {2.5, 0.0}, {2.5, -2.0}, {5.0, -2.0}, {-0.5, 3.0}, {3.0, -0.75}, {-3.0, 4.0}, {-2.0, 4.0}, {-4.0, 4.0}, {-3.0, 5.0}, {-3.0, 3.0}, {-0.5, 3.0}, {-6.0, 8.0}, {-2.5, 4.25}, {0.5, 0.25}, {1.5, 0.25}, {-0.5, 0.25}, {0.5, 1.25}, {0.5, -0.75}, {3.0, -0.75}, {-2.5, 4.25}, {1.0, 0.5}}},
    {"subtract", 1, {{0.0, 0.0}, {-1.0, 0.0}, {1.0, 0.0}, {0.0, -1.0}, {0.0, 1.0}, {-2.5, 1.0}, {3.0, -4.0}, {-0.5, -0.25}, {1.0, 0.0}, {0.0, 0.0}, {2.0, 0.0}, {1.0, -1.0}, {1.0, 1.0}, {-1.5, 1.0}, {4.0, -4.0}, {0.5, -0.25}, {-1.0, 0.0}, {-2.0, 0.0}, {0.0, 0.0}, {-1.0, -1.0}, {-1.0, 1.0}, {-3.5, 1.0}, {2.0, -4.0}, {-1.5, -0.25}, {0.0, 1.0}, {-1.0, 1.0}, {1.0, 1.0}, {0.0, 0.0}, {0.0, 2.0}, {-2.5, 2.0}, {3.0, -3.0}, {-0.5, 0.75}, {-0.0, -1.0}, {-1.0, -1.0}, {1.0, -1.0}, {-0.0, -2.0}, {0.0, 0.0}, {-2.5, 0.0}, {3.0, -5.0}, {-0.5, -1.25}, {2.5, -1.0}, {1.5, -1.0}, {3.5, -1.0}, {2.5, -2.0}, {2.5, 0.0}, {0.0, 0.0}, {5.5, -5.0}, {2.0, -1.25}, {-3.0, 4.0}, {-4.0, 4.0}, {-2.0, 4.0}, {-3.0, 3.0}, {-3.0, 5.0}, {-5.5, 5.0}, {0.0, 0.0}, {-3.5, 3.75}, {0.5, 0.25}, {-0.5, 0.25}, {1.5, 0.25}, {0.5, -0.75}, {0.5, 1.25}, {-2.0, 1.25}, {3.5, -3.75}, {0.0, 0.0}}},
    {"multiply", 1, {{0.0, 0.0}, {0.0, 0.0}, {-0.0, 0.0}, {0.0, 0.0}, {0.0, -0.0}, {0.0, 0.0}, {-0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {-0.0, 0.0}, {-1.0, 0.0}, {1.0, -0.0}, {-0.0, -1.0}, {0.0, 1.0}, {-2.5, 1.0}, {3.0, -4.0}, {-0.5, -0.25}, {0.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {-1.0, 0.0}, {1.0, -0.0}, {1.0, 2.5}, {-4.0, -3.0}, {-0.25, 0.5}, {0.0, -0.0}, {0.0, -1.0}, {0.0, 1.0}, {1.0, -0.0}, {-1.0, 0.0}, {-1.0, -2.5}, {4.0, 3.0}, {0.25, -0.5}, {0.0, 0.0}, {2.5, -1.0}, {-2.5, 1.0}, {1.0, 2.5}, {-1.0, -2.5}, {5.25, -5.0}, {-3.5, 13.0}, {1.5, 0.125}, {-0.0, 0.0}, {-3.0, 4.0}, {3.0, -4.0}, {-4.0, -3.0}, {4.0, 3.0}, {-3.5, 13.0}, {-7.0, -24.0}, {-2.5, 1.25}, {0.0, 0.0}, {0.5, 0.25}, {-0.5, -0.25}, {-0.25, 0.5}, {0.25, -0.5}, {1.5, 0.125}, {-2.5, 1.25}, {0.1875, 0.25}}},
    {"true_divide", 0, {{NAN, NAN}, {0.0, 0.0}, {-0.0, -0.0}, {0.0, 0.0}, {-0.0, -0.0}, {0.0, 0.0}, {0.0, -0.0}, {0.0, 0.0}, {INFINITY, NAN}, {1.0, 0.0}, {-1.0, -0.0}, {0.0, -1.0}, {-0.0, 1.0}, {0.3448275625705719, 0.13793103396892548}, {-0.11999999731779099, -0.1599999964237213}, {1.600000023841858, -0.800000011920929}, {-INFINITY, NAN}, {-1.0, 0.0}, {1.0, -0.0}, {0.0, 1.0}, {-0.0, -1.0}, {-0.3448275625705719, -0.13793103396892548}, {0.11999999731779099, 0.1599999964237213}, {-1.600000023841858, 0.800000011920929}, {NAN, INFINITY}, {0.0, 1.0}, {-0.0, -1.0}, {1.0, 0.0}, {-1.0, -0.0}, {-0.13793103396892548, 0.3448275625705719}, {0.1599999964237213, -0.11999999731779099}, {0.800000011920929, 1.600000023841858}, {NAN, -INFINITY}, {-0.0, -1.0}, {-0.0, 1.0}, {-1.0, 0.0}, {1.0, -0.0}, {0.13793103396892548, -0.3448275625705719}, {-0.1599999964237213, 0.11999999731779099}, {-0.800000011920929, -1.600000023841858}, {INFINITY, -INFINITY}, {2.5, -1.0}, {-2.5, 1.0}, {-1.0, -2.5}, {1.0, 2.5}, {0.9999999403953552, 0.0}, {-0.4599999785423279, -0.2800000011920929}, {3.200000047683716, -3.6000001430511475}, {-INFINITY, INFINITY}, {-3.0, 4.0}, {3.0, -4.0}, {4.0, 3.0}, {-4.0, -3.0}, {-1.5862067937850952, 0.9655171632766724}, {1.0, 0.0}, {-1.600000023841858, 8.800000190734863}, {INFINITY, INFINITY}, {0.5, 0.25}, {-0.5, -0.25}, {0.25, -0.5}, {-0.25, 0.5}, {0.13793103396892548, 0.15517239272594452}, {-0.019999999552965164, -0.10999999940395355}, {1.0, 0.0}}},
    {"power", 0, {{1.0, 0.0}, {0.0, 0.0}, {NAN, NAN}, {NAN, NAN}, {NAN, NAN}, {0.0, 0.0}, {NAN, NAN}, {0.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, -0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {-1.0, -0.0}, {0.04321391507983208, 0.0}, {23.140695571899414, -0.0}, {-7.816145625838544e-06, 23.140695571899414}, {-3.487341246000142e-06, 8.317225895634536e-14}, {-1.992968812203344e-08, 0.4559381306171417}, {1.0, 0.0}, {0.0, 1.0}, {0.0, -1.0}, {0.20787957310676575, 0.0}, {4.8104777336120605, -0.0}, {-3.4015207290649414, -3.401521921157837}, {2.2269026900278988e-11, 0.0018674423918128014}, {0.477461040019989, 0.477461040019989}, {1.0, 0.0}, {-0.0, -1.0}, {-0.0, 1.0}, {4.8104777336120605, 0.0}, {0.20787957310676575, 0.0}, {-0.146993026137352, 0.14699307084083557}, {6.3856755332381e-06, -535.4917602539062}, {1.0472058057785034, -1.0472058057785034}, {1.0, 0.0}, {2.5, -1.0}, {0.3448275625705719, 0.13793103396892548}, {0.80213463306427, 1.2235289812088013}, {0.3747516870498657, -0.5716241598129272}, {-2.947831869125366, -7.57836389541626}, {0.08947353810071945, -0.21696847677230835}, {1.8016992807388306, 0.10348063707351685}, {1.0, 0.0}, {-3.0, 4.0}, {-0.11999999731779099, -0.1599999964237213}, {-0.004219782073050737, 0.10914868116378784}, {-0.3536750376224518, -9.148141860961914}, {-362.12994384765625, -361.6341247558594}, {1.1149570582347224e-06, -2.319868599442998e-07}, {0.07873626053333282, 1.283082365989685}, {1.0, 0.0}, {0.5, 0.25}, {1.600000023841858, -0.800000011920929}, {0.5255789160728455, -0.3455273509025574}, {1.3284863233566284, 0.873376727104187}, {-0.06280861794948578, 0.36612024903297424}, {-0.7515614628791809, 0.4877418279647827}, {0.6633588075637817, 0.05747726187109947}}},
    {"maximum", 1, {{0.0, 0.0}, {1.0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, {0.0, 0.0}, {2.5, -1.0}, {0.0, 0.0}, {0.5, 0.25}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {2.5, -1.0}, {1.0, 0.0}, {1.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-1.0, 0.0}, {0.5, 0.25}, {0.0, 1.0}, {1.0, 0.0}, {0.0, 1.0}, {0.0, 1.0}, {0.0, 1.0}, {2.5, -1.0}, {0.0, 1.0}, {0.5, 0.25}, {0.0, 0.0}, {1.0, 0.0}, {-0.0, -1.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-0.0, -1.0}, {0.5, 0.25}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {0.5, 0.25}, {1.0, 0.0}, {0.5, 0.25}, {0.5, 0.25}, {0.5, 0.25}, {2.5, -1.0}, {0.5, 0.25}, {0.5, 0.25}}},
    {"minimum", 1, {{0.0, 0.0}, {0.0, 0.0}, {-1.0, 0.0}, {0.0, 0.0}, {-0.0, -1.0}, {0.0, 0.0}, {-3.0, 4.0}, {0.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {1.0, 0.0}, {-3.0, 4.0}, {0.5, 0.25}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-3.0, 4.0}, {-1.0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {0.0, 1.0}, {-3.0, 4.0}, {0.0, 1.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-1.0, 0.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-3.0, 4.0}, {-0.0, -1.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {0.0, 0.0}, {0.5, 0.25}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {0.5, 0.25}, {-3.0, 4.0}, {0.5, 0.25}}},
    {"fmax", 1, {{0.0, 0.0}, {1.0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, {0.0, 0.0}, {2.5, -1.0}, {0.0, 0.0}, {0.5, 0.25}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {2.5, -1.0}, {1.0, 0.0}, {1.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-1.0, 0.0}, {0.5, 0.25}, {0.0, 1.0}, {1.0, 0.0}, {0.0, 1.0}, {0.0, 1.0}, {0.0, 1.0}, {2.5, -1.0}, {0.0, 1.0}, {0.5, 0.25}, {0.0, 0.0}, {1.0, 0.0}, {-0.0, -1.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-0.0, -1.0}, {0.5, 0.25}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {2.5, -1.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {0.5, 0.25}, {1.0, 0.0}, {0.5, 0.25}, {0.5, 0.25}, {0.5, 0.25}, {2.5, -1.0}, {0.5, 0.25}, {0.5, 0.25}}},
    {"fmin", 1, {{0.0, 0.0}, {0.0, 0.0}, {-1.0, 0.0}, {0.0, 0.0}, {-0.0, -1.0}, {0.0, 0.0}, {-3.0, 4.0}, {0.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {1.0, 0.0}, {-3.0, 4.0}, {0.5, 0.25}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {-3.0, 4.0}, {-1.0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {0.0, 1.0}, {-3.0, 4.0}, {0.0, 1.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-1.0, 0.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-0.0, -1.0}, {-3.0, 4.0}, {-0.0, -1.0}, {0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.5, -1.0}, {-3.0, 4.0}, {0.5, 0.25}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {-3.0, 4.0}, {0.0, 0.0}, {0.5, 0.25}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {0.5, 0.25}, {-3.0, 4.0}, {0.5, 0.25}}},
};
static const bool_row c64_binb[] = {
    {"equal", "1000000001000000001000000001000000001000000001000000001000000001"},
    {"not_equal", "0111111110111111110111111110111111110111111110111111110111111110"},
    {"less", "0101010100000100110111010100010111010101000000001111110101000100"},
    {"less_equal", "1101010101000100111111010101010111011101000001001111111101000101"},
    {"greater", "0010101010111011000000101010101000100010111110110000000010111010"},
    {"greater_equal", "1010101011111011001000101011101000101010111111110000001010111011"},
    {"logical_and", "0000000001111111011111110111111101111111011111110111111101111111"},
};
static const cplx_row c64_un[] = {
    {"negative", 1, {{-0.0, -0.0}, {-1.0, -0.0}, {1.0, -0.0}, {-0.0, -1.0}, {0.0, 1.0}, {-2.5, 1.0}, {3.0, -4.0}, {-0.5, -0.25}}},
    {"sign", 0, {{0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {0.9284766912460327, -0.3713906705379486}, {-0.6000000238418579, 0.800000011920929}, {0.8944271802902222, 0.4472135901451111}}},
    {"square", 1, {{0.0, 0.0}, {1.0, 0.0}, {1.0, -0.0}, {-1.0, 0.0}, {-1.0, 0.0}, {5.25, -5.0}, {-7.0, -24.0}, {0.1875, 0.25}}},
    {"sqrt", 0, {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}, {0.7071067690849304, 0.7071067690849304}, {0.7071067690849304, -0.7071067690849304}, {1.611301064491272, -0.3103082478046417}, {1.0, 2.0}, {0.727673351764679, 0.17178037762641907}}},
    {"reciprocal", 0, {{NAN, NAN}, {1.0, -0.0}, {-1.0, -0.0}, {0.0, -1.0}, {-0.0, 1.0}, {0.3448275625705719, 0.13793103396892548}, {-0.11999999731779099, -0.1599999964237213}, {1.600000023841858, -0.800000011920929}}},
    {"exp", 0, {{1.0, 0.0}, {2.7182817459106445, 0.0}, {0.3678794503211975, 0.0}, {0.5403022766113281, 0.8414709568023682}, {0.5403022766113281, -0.8414709568023682}, {6.582229137420654, -10.251214981079102}, {-0.03254299983382225, -0.037678975611925125}, {1.5974664688110352, 0.4079001545906067}}},
    {"exp2", 0, {{1.0, 0.0}, {2.0, 0.0}, {0.5, 0.0}, {0.7692388892173767, 0.6389612555503845}, {0.7692388892173767, -0.6389612555503845}, {4.3514723777771, -3.6145105361938477}, {-0.11658588796854019, 0.04508582130074501}, {1.3930333852767944, 0.24383988976478577}}},
    {"expm1", 0, {{0.0, 0.0}, {1.7182817459106445, 0.0}, {-0.6321205496788025, 0.0}, {-0.4596977233886719, 0.8414709568023682}, {-0.4596977233886719, -0.8414709568023682}, {5.582229137420654, -10.251214981079102}, {-1.0325429439544678, -0.037678975611925125}, {0.5974665284156799, 0.4079001545906067}}},
    {"log", 0, {{-INFINITY, 0.0}, {0.0, 0.0}, {0.0, 3.1415927410125732}, {0.0, 1.5707963705062866}, {0.0, -1.5707963705062866}, {0.9905007481575012, -0.38050639629364014}, {1.6094379425048828, 2.2142975330352783}, {-0.5815753936767578, 0.46364760398864746}}},
    {"log2", 0, {{-INFINITY, 0.0}, {0.0, 0.0}, {0.0, 4.532360076904297}, {0.0, 2.2661800384521484}, {0.0, -2.2661800384521484}, {1.4289904832839966, -0.5489546656608582}, {2.321928024291992, 3.1945559978485107}, {-0.8390359282493591, 0.6689020991325378}}},
    {"log10", 0, {{-INFINITY, 0.0}, {0.0, 0.0}, {0.0, 1.364376425743103}, {0.0, 0.6821882128715515}, {0.0, -0.6821882128715515}, {0.430169016122818, -0.16525183618068695}, {0.6989700198173523, 0.9616572260856628}, {-0.25257498025894165, 0.2013595998287201}}},
    {"log1p", 0, {{0.0, 0.0}, {0.6931471824645996, 0.0}, {-INFINITY, 0.0}, {0.3465735614299774, 0.7853981852531433}, {0.3465735614299774, -0.7853981852531433}, {1.2919987440109253, -0.2782996594905853}, {1.497866153717041, 2.0344438552856445}, {0.41916462779045105, 0.16514867544174194}}},
    {"sin", 0, {{0.0, 0.0}, {0.8414709568023682, 0.0}, {-0.8414709568023682, 0.0}, {0.0, 1.175201177597046}, {-0.0, -1.175201177597046}, {0.9234907031059265, 0.9415048956871033}, {-3.8537375926971436, -27.016815185546875}, {0.4944857954978943, 0.2216881662607193}}},
    {"cos", 0, {{1.0, -0.0}, {0.5403022766113281, -0.0}, {0.5403022766113281, 0.0}, {1.5430805683135986, -0.0}, {1.5430805683135986, -0.0}, {-1.2362290620803833, 0.7033251523971558}, {-27.034944534301758, 3.8511533737182617}, {0.9051501154899597, -0.12110880017280579}}},
    {"tan", 0, {{0.0, 0.0}, {1.5574077367782593, 0.0}, {-1.5574077367782593, 0.0}, {0.0, 0.7615941166877747}, {-0.0, -0.7615941166877747}, {-0.2370138317346573, -0.89643794298172}, {0.00018734617333393544, 0.9993558526039124}, {0.5045007467269897, 0.31242072582244873}}},
    {"sinh", 0, {{0.0, 0.0}, {1.175201177597046, 0.0}, {-1.175201177597046, 0.0}, {0.0, 0.8414709568023682}, {-0.0, -0.8414709568023682}, {3.26893949508667, -5.1601433753967285}, {6.54811954498291, -7.619232177734375}, {0.5048956871032715, 0.2789791226387024}}},
    {"cosh", 0, {{1.0, 0.0}, {1.5430805683135986, 0.0}, {1.5430805683135986, -0.0}, {0.5403022766113281, 0.0}, {0.5403022766113281, 0.0}, {3.3132898807525635, -5.091071605682373}, {-6.580663204193115, 7.581552505493164}, {1.0925707817077637, 0.1289210319519043}}},
    {"tanh", 0, {{0.0, 0.0}, {0.7615941166877747, 0.0}, {-0.7615941166877747, 0.0}, {0.0, 1.5574077367782593}, {-0.0, -1.5574077367782593}, {1.0055480003356934, -0.01232213620096445}, {-1.0007096529006958, 0.004908258095383644}, {0.4854872524738312, 0.1980554610490799}}},
    {"rint", 1, {{0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {-0.0, -1.0}, {2.0, -1.0}, {-3.0, 4.0}, {0.0, 0.0}}},
    {"conjugate", 1, {{0.0, -0.0}, {1.0, -0.0}, {-1.0, -0.0}, {0.0, -1.0}, {-0.0, 1.0}, {2.5, 1.0}, {-3.0, -4.0}, {0.5, -0.25}}},
    {"absolute", 0, {{0.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {2.692582368850708, 0.0}, {5.0, 0.0}, {0.55901700258255, 0.0}}},
};
static const unsigned short f16_vals[12] = {0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0001, 0xc100, 0x2e66};
static const f16_row f16_bin[] = {
    {"add", {0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7c00, 0xfe00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7e00, 0xfe00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0x7e00, 0x7c00, 0xfc00, 0x0000, 0x0000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0001, 0xc100, 0x2e66, 0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0001, 0xc100, 0x2e66, 0x7e00, 0x7c00, 0xfc00, 0x3c00, 0x3c00, 0x4000, 0x0000, 0x3d55, 0x7bff, 0x3c00, 0xbe00, 0x3c66, 0x7e00, 0x7c00, 0xfc00, 0xbc00, 0xbc00, 0x0000, 0xc000, 0xb956, 0x7bff, 0xbc00, 0xc300, 0xbb33, 0x7e00, 0x7c00, 0xfc00, 0x3555, 0x3555, 0x3d55, 0xb956, 0x3955, 0x7bff, 0x3555, 0xc055, 0x36ee, 0x7e00, 0x7c00, 0xfc00, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7c00, 0x7bff, 0x7bff, 0x7bff, 0x7e00, 0x7c00, 0xfc00, 0x0001, 0x0001, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0002, 0xc100, 0x2e66, 0x7e00, 0x7c00, 0xfc00, 0xc100, 0xc100, 0xbe00, 0xc300, 0xc055, 0x7bff, 0xc100, 0xc500, 0xc0cd, 0x7e00, 0x7c00, 0xfc00, 0x2e66, 0x2e66, 0x3c66, 0xbb33, 0x36ee, 0x7bff, 0x2e66, 0xc0cd, 0x3266}},
    {"multiply", {0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7c00, 0xfc00, 0xfe00, 0xfe00, 0x7c00, 0xfc00, 0x7c00, 0x7c00, 0x7c00, 0xfc00, 0x7c00, 0x7e00, 0xfc00, 0x7c00, 0xfe00, 0xfe00, 0xfc00, 0x7c00, 0xfc00, 0xfc00, 0xfc00, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0xfe00, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x0000, 0x0000, 0x8000, 0x0000, 0x7e00, 0xfe00, 0xfe00, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x8000, 0x8000, 0x0000, 0x8000, 0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0001, 0xc100, 0x2e66, 0x7e00, 0xfc00, 0x7c00, 0x8000, 0x0000, 0xbc00, 0x3c00, 0xb555, 0xfbff, 0x8001, 0x4100, 0xae66, 0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3555, 0xb555, 0x2f1c, 0x7554, 0x0000, 0xbaaa, 0x2844, 0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x7bff, 0xfbff, 0x7554, 0x7c00, 0x1bff, 0xfc00, 0x6e65, 0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001, 0x8001, 0x0000, 0x1bff, 0x0000, 0x8002, 0x0000, 0x7e00, 0xfc00, 0x7c00, 0x8000, 0x0000, 0xc100, 0x4100, 0xbaaa, 0xfc00, 0x8002, 0x4640, 0xb400, 0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x2e66, 0xae66, 0x2844, 0x6e65, 0x0000, 0xb400, 0x211e}},
    {"true_divide", {0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0xfe00, 0xfe00, 0x7c00, 0xfc00, 0x7c00, 0xfc00, 0x7c00, 0x7c00, 0x7c00, 0xfc00, 0x7c00, 0x7e00, 0xfe00, 0xfe00, 0xfc00, 0x7c00, 0xfc00, 0x7c00, 0xfc00, 0xfc00, 0xfc00, 0x7c00, 0xfc00, 0x7e00, 0x0000, 0x8000, 0xfe00, 0xfe00, 0x0000, 0x8000, 0x0000, 0x0000, 0x0000, 0x8000, 0x0000, 0x7e00, 0x8000, 0x0000, 0xfe00, 0xfe00, 0x8000, 0x0000, 0x8000, 0x8000, 0x8000, 0x0000, 0x8000, 0x7e00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x3c00, 0xbc00, 0x4200, 0x0100, 0x7c00, 0xb666, 0x4900, 0x7e00, 0x8000, 0x0000, 0xfc00, 0x7c00, 0xbc00, 0x3c00, 0xc200, 0x8100, 0xfc00, 0x3666, 0xc900, 0x7e00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x3555, 0xb555, 0x3c00, 0x0055, 0x7c00, 0xb044, 0x42ab, 0x7e00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7bff, 0xfbff, 0x7c00, 0x3c00, 0x7c00, 0xf666, 0x7c00, 0x7e00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x0001, 0x8001, 0x0003, 0x0000, 0x3c00, 0x8000, 0x000a, 0x7e00, 0x8000, 0x0000, 0xfc00, 0x7c00, 0xc100, 0x4100, 0xc780, 0x8280, 0xfc00, 0x3c00, 0xce40, 0x7e00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x2e66, 0xae66, 0x34cd, 0x001a, 0x7c00, 0xa91e, 0x3c00}},
    {"floor_divide", {0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0xfe00, 0xfe00, 0x7c00, 0xfc00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0x7e00, 0xfe00, 0xfe00, 0xfc00, 0x7c00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0x7e00, 0x0000, 0x8000, 0xfe00, 0xfe00, 0x0000, 0x8000, 0x0000, 0x0000, 0x0000, 0x8000, 0x0000, 0x7e00, 0x8000, 0x0000, 0xfe00, 0xfe00, 0x8000, 0x0000, 0x8000, 0x8000, 0x8000, 0x0000, 0x8000, 0x7e00, 0x0000, 0xbc00, 0x7c00, 0xfc00, 0x3c00, 0xbc00, 0x4200, 0x0000, 0x7c00, 0xbc00, 0x4900, 0x7e00, 0xbc00, 0x0000, 0xfc00, 0x7c00, 0xbc00, 0x3c00, 0xc400, 0xbc00, 0xfc00, 0x0000, 0xc980, 0x7e00, 0x0000, 0xbc00, 0x7c00, 0xfc00, 0x0000, 0xbc00, 0x3c00, 0x0000, 0x7c00, 0xbc00, 0x4200, 0x7e00, 0x0000, 0xbc00, 0x7c00, 0xfc00, 0x7bff, 0xfbff, 0x7c00, 0x3c00, 0x7c00, 0xf666, 0x7c00, 0x7e00, 0x0000, 0xbc00, 0x7c00, 0xfc00, 0x0000, 0xbc00, 0x0000, 0x0000, 0x3c00, 0xbc00, 0x0000, 0x7e00, 0xbc00, 0x0000, 0xfc00, 0x7c00, 0xc200, 0x4000, 0xc800, 0xbc00, 0xfc00, 0x3c00, 0xce80, 0x7e00, 0x0000, 0xbc00, 0x7c00, 0xfc00, 0x0000, 0xbc00, 0x0000, 0x0000, 0x7c00, 0xbc00, 0x3c00}},
    {"remainder", {0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0x7e00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0x7e00, 0x0000, 0x8000, 0xfe00, 0xfe00, 0x0000, 0x8000, 0x0000, 0x0000, 0x0000, 0x8000, 0x0000, 0x7e00, 0x0000, 0x8000, 0xfe00, 0xfe00, 0x0000, 0x8000, 0x0000, 0x0000, 0x0000, 0x8000, 0x0000, 0x7e00, 0x3c00, 0xfc00, 0xfe00, 0xfe00, 0x0000, 0x8000, 0x0c00, 0x3c00, 0x0000, 0xbe00, 0x0c00, 0x7e00, 0x7c00, 0xbc00, 0xfe00, 0xfe00, 0x0000, 0x8000, 0x3554, 0x7bff, 0x0000, 0xbc00, 0x2e62, 0x7e00, 0x3555, 0xfc00, 0xfe00, 0xfe00, 0x3555, 0xb956, 0x0000, 0x3555, 0x0000, 0xc055, 0x2844, 0x7e00, 0x7bff, 0xfc00, 0xfe00, 0xfe00, 0x0000, 0x8000, 0x3545, 0x0000, 0x0000, 0xbc00, 0x2e26, 0x7e00, 0x0001, 0xfc00, 0xfe00, 0xfe00, 0x0001, 0xbc00, 0x0001, 0x0001, 0x0000, 0xc100, 0x0001, 0x7e00, 0x7c00, 0xc100, 0xfe00, 0xfe00, 0x3800, 0xb800, 0x3150, 0x7bff, 0x0000, 0x8000, 0x2e5c, 0x7e00, 0x2e66, 0xfc00, 0xfe00, 0xfe00, 0x2e66, 0xbb33, 0x2e66, 0x2e66, 0x0000, 0xc0cd, 0x0000}},
    {"nextafter", {0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7c00, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7e00, 0xfbff, 0xfc00, 0xfbff, 0xfbff, 0xfbff, 0xfbff, 0xfbff, 0xfbff, 0xfbff, 0xfbff, 0xfbff, 0x7e00, 0x0001, 0x8001, 0x0000, 0x0000, 0x0001, 0x8001, 0x0001, 0x0001, 0x0001, 0x8001, 0x0001, 0x7e00, 0x0001, 0x8001, 0x8000, 0x8000, 0x0001, 0x8001, 0x0001, 0x0001, 0x0001, 0x8001, 0x0001, 0x7e00, 0x3c01, 0x3bff, 0x3bff, 0x3bff, 0x3c00, 0x3bff, 0x3bff, 0x3c01, 0x3bff, 0x3bff, 0x3bff, 0x7e00, 0xbbff, 0xbc01, 0xbbff, 0xbbff, 0xbbff, 0xbc00, 0xbbff, 0xbbff, 0xbbff, 0xbc01, 0xbbff, 0x7e00, 0x3556, 0x3554, 0x3554, 0x3554, 0x3556, 0x3554, 0x3555, 0x3556, 0x3554, 0x3554, 0x3554, 0x7e00, 0x7c00, 0x7bfe, 0x7bfe, 0x7bfe, 0x7bfe, 0x7bfe, 0x7bfe, 0x7bff, 0x7bfe, 0x7bfe, 0x7bfe, 0x7e00, 0x0002, 0x0000, 0x0000, 0x0000, 0x0002, 0x0000, 0x0002, 0x0002, 0x0001, 0x0000, 0x0002, 0x7e00, 0xc0ff, 0xc101, 0xc0ff, 0xc0ff, 0xc0ff, 0xc0ff, 0xc0ff, 0xc0ff, 0xc0ff, 0xc100, 0xc0ff, 0x7e00, 0x2e67, 0x2e65, 0x2e65, 0x2e65, 0x2e67, 0x2e65, 0x2e67, 0x2e67, 0x2e65, 0x2e65, 0x2e66}},
    {"maximum", {0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0001, 0xc100, 0x2e66, 0x7e00, 0x7c00, 0x0000, 0x0000, 0x0000, 0x3c00, 0x0000, 0x3555, 0x7bff, 0x0001, 0x0000, 0x2e66, 0x7e00, 0x7c00, 0x8000, 0x8000, 0x8000, 0x3c00, 0x8000, 0x3555, 0x7bff, 0x0001, 0x8000, 0x2e66, 0x7e00, 0x7c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x7bff, 0x3c00, 0x3c00, 0x3c00, 0x7e00, 0x7c00, 0xbc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0001, 0xbc00, 0x2e66, 0x7e00, 0x7c00, 0x3555, 0x3555, 0x3555, 0x3c00, 0x3555, 0x3555, 0x7bff, 0x3555, 0x3555, 0x3555, 0x7e00, 0x7c00, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7bff, 0x7e00, 0x7c00, 0x0001, 0x0001, 0x0001, 0x3c00, 0x0001, 0x3555, 0x7bff, 0x0001, 0x0001, 0x2e66, 0x7e00, 0x7c00, 0xc100, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0001, 0xc100, 0x2e66, 0x7e00, 0x7c00, 0x2e66, 0x2e66, 0x2e66, 0x3c00, 0x2e66, 0x3555, 0x7bff, 0x2e66, 0x2e66, 0x2e66}},
    {"fmin", {0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0001, 0xc100, 0x2e66, 0x7c00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0001, 0xc100, 0x2e66, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0x0000, 0x0000, 0xfc00, 0x0000, 0x0000, 0x0000, 0xbc00, 0x0000, 0x0000, 0x0000, 0xc100, 0x0000, 0x8000, 0x8000, 0xfc00, 0x8000, 0x8000, 0x8000, 0xbc00, 0x8000, 0x8000, 0x8000, 0xc100, 0x8000, 0x3c00, 0x3c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x3c00, 0x0001, 0xc100, 0x2e66, 0xbc00, 0xbc00, 0xfc00, 0xbc00, 0xbc00, 0xbc00, 0xbc00, 0xbc00, 0xbc00, 0xbc00, 0xc100, 0xbc00, 0x3555, 0x3555, 0xfc00, 0x0000, 0x8000, 0x3555, 0xbc00, 0x3555, 0x3555, 0x0001, 0xc100, 0x2e66, 0x7bff, 0x7bff, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0x0001, 0xc100, 0x2e66, 0x0001, 0x0001, 0xfc00, 0x0000, 0x8000, 0x0001, 0xbc00, 0x0001, 0x0001, 0x0001, 0xc100, 0x0001, 0xc100, 0xc100, 0xfc00, 0xc100, 0xc100, 0xc100, 0xc100, 0xc100, 0xc100, 0xc100, 0xc100, 0xc100, 0x2e66, 0x2e66, 0xfc00, 0x0000, 0x8000, 0x2e66, 0xbc00, 0x2e66, 0x2e66, 0x0001, 0xc100, 0x2e66}},
    {"power", {0x7e00, 0x7e00, 0x7e00, 0x3c00, 0x3c00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7c00, 0x0000, 0x3c00, 0x3c00, 0x7c00, 0x0000, 0x7c00, 0x7c00, 0x7c00, 0x0000, 0x7c00, 0x7e00, 0x7c00, 0x0000, 0x3c00, 0x3c00, 0xfc00, 0x8000, 0x7c00, 0x7c00, 0x7c00, 0x0000, 0x7c00, 0x7e00, 0x0000, 0x7c00, 0x3c00, 0x3c00, 0x0000, 0x7c00, 0x0000, 0x0000, 0x0000, 0x7c00, 0x0000, 0x7e00, 0x0000, 0x7c00, 0x3c00, 0x3c00, 0x8000, 0xfc00, 0x0000, 0x0000, 0x0000, 0x7c00, 0x0000, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x7e00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0xbc00, 0xbc00, 0xfe00, 0x3c00, 0xfe00, 0xfe00, 0xfe00, 0x7e00, 0x0000, 0x7c00, 0x3c00, 0x3c00, 0x3555, 0x4200, 0x398c, 0x0000, 0x3c00, 0x4bcd, 0x3b2b, 0x7e00, 0x7c00, 0x0000, 0x3c00, 0x3c00, 0x7bff, 0x0100, 0x5109, 0x7c00, 0x3c00, 0x0000, 0x4210, 0x7e00, 0x0000, 0x7c00, 0x3c00, 0x3c00, 0x0001, 0x7c00, 0x1c01, 0x0000, 0x3c00, 0x7c00, 0x3211, 0x7e00, 0x7c00, 0x0000, 0x3c00, 0x3c00, 0xc100, 0xb666, 0xfe00, 0x7c00, 0xfe00, 0xfe00, 0xfe00, 0x7e00, 0x0000, 0x7c00, 0x3c00, 0x3c00, 0x2e66, 0x4900, 0x376d, 0x0000, 0x3c00, 0x5cf2, 0x3a5b}},
    {"arctan2", {0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x3a48, 0x40b6, 0x3e48, 0x3e48, 0x3e48, 0x3e48, 0x3e48, 0x3e48, 0x3e48, 0x3e48, 0x3e48, 0x7e00, 0xba48, 0xc0b6, 0xbe48, 0xbe48, 0xbe48, 0xbe48, 0xbe48, 0xbe48, 0xbe48, 0xbe48, 0xbe48, 0x7e00, 0x0000, 0x4248, 0x0000, 0x4248, 0x0000, 0x4248, 0x0000, 0x0000, 0x0000, 0x4248, 0x0000, 0x7e00, 0x8000, 0xc248, 0x8000, 0xc248, 0x8000, 0xc248, 0x8000, 0x8000, 0x8000, 0xc248, 0x8000, 0x7e00, 0x0000, 0x4248, 0x3e48, 0x3e48, 0x3a48, 0x40b6, 0x3cff, 0x0100, 0x3e48, 0x4186, 0x3de2, 0x7e00, 0x8000, 0xc248, 0xbe48, 0xbe48, 0xba48, 0xc0b6, 0xbcff, 0x8100, 0xbe48, 0xc186, 0xbde2, 0x7e00, 0x0000, 0x4248, 0x3e48, 0x3e48, 0x3526, 0x41a4, 0x3a48, 0x0055, 0x3e48, 0x4205, 0x3d1e, 0x7e00, 0x0000, 0x4248, 0x3e48, 0x3e48, 0x3e48, 0x3e49, 0x3e48, 0x3a48, 0x3e48, 0x3e49, 0x3e48, 0x7e00, 0x0000, 0x4248, 0x3e48, 0x3e48, 0x0001, 0x4248, 0x0003, 0x0000, 0x3a48, 0x4248, 0x000a, 0x7e00, 0x8000, 0xc248, 0xbe48, 0xbe48, 0xbcc3, 0xbfce, 0xbdc1, 0x8280, 0xbe48, 0xc0b6, 0xbe20, 0x7e00, 0x0000, 0x4248, 0x3e48, 0x3e48, 0x2e61, 0x4215, 0x34aa, 0x001a, 0x3e48, 0x4234, 0x3a48}},
};
static const f16_row f16_un[] = {
    {"sqrt", {0x7e00, 0x7c00, 0xfe00, 0x0000, 0x8000, 0x3c00, 0xfe00, 0x389e, 0x5bff, 0x0c00, 0xfe00, 0x350f}},
    {"exp", {0x7e00, 0x7c00, 0x0000, 0x3c00, 0x3c00, 0x4170, 0x35e3, 0x3d95, 0x7c00, 0x3c00, 0x2d41, 0x3c6c}},
    {"reciprocal", {0x7e00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x3c00, 0xbc00, 0x4200, 0x0100, 0x7c00, 0xb666, 0x4900}},
    {"rint", {0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x0000, 0x7bff, 0x0000, 0xc000, 0x0000}},
    {"sign", {0x7e00, 0x3c00, 0xbc00, 0x0000, 0x0000, 0x3c00, 0xbc00, 0x3c00, 0x3c00, 0x3c00, 0xbc00, 0x3c00}},
    {"square", {0x7e00, 0x7c00, 0x7c00, 0x0000, 0x0000, 0x3c00, 0x3c00, 0x2f1c, 0x7c00, 0x0000, 0x4640, 0x211e}},
    {"negative", {0xfe00, 0xfc00, 0x7c00, 0x8000, 0x0000, 0xbc00, 0x3c00, 0xb555, 0xfbff, 0x8001, 0x4100, 0xae66}},
    {"log", {0x7e00, 0x7c00, 0xfe00, 0xfc00, 0xfc00, 0x0000, 0xfe00, 0xbc65, 0x498c, 0xcc29, 0xfe00, 0xc09b}},
    {"tanh", {0x7e00, 0x3c00, 0xbc00, 0x0000, 0x8000, 0x3a18, 0xba18, 0x3525, 0x3c00, 0x0001, 0xbbe5, 0x2e61}},
    {"cbrt", {0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x398c, 0x510a, 0x1c00, 0xbd6e, 0x376d}},
};
/* numpy astype from each source dtype and value (little-endian hex) to
 * each of "?bhiqBHIQefdFD". "-": float-to-integer casts of NaN, infinity
 * or values outside the int32 (int64) range, which NumPy leaves to the
 * platform. */
static const cast_row np_casts[] = {
    {'?', "00",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'?', "01",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'b', "00",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'b', "01",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'b', "ff",
     "01 ff ffff ffffffff ffffffffffffffff ff ffff ffffffff ffffffffffffffff 00bc 000080bf 000000000000f0bf 000080bf00000000 000000000000f0bf0000000000000000"},
    {'h', "0000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'h', "0100",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'h', "ffff",
     "01 ff ffff ffffffff ffffffffffffffff ff ffff ffffffff ffffffffffffffff 00bc 000080bf 000000000000f0bf 000080bf00000000 000000000000f0bf0000000000000000"},
    {'h', "c800",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'h', "2c01",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'i', "00000000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'i', "01000000",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'i', "ffffffff",
     "01 ff ffff ffffffff ffffffffffffffff ff ffff ffffffff ffffffffffffffff 00bc 000080bf 000000000000f0bf 000080bf00000000 000000000000f0bf0000000000000000"},
    {'i', "c8000000",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'i', "2c010000",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'i', "e0ff0000",
     "01 e0 e0ff e0ff0000 e0ff000000000000 e0 e0ff e0ff0000 e0ff000000000000 ff7b 00e07f47 0000000000fcef40 00e07f4700000000 0000000000fcef400000000000000000"},
    {'i', "70110100",
     "01 70 7011 70110100 7011010000000000 70 7011 70110100 7011010000000000 007c 00b88847 000000000017f140 00b8884700000000 000000000017f1400000000000000000"},
    {'q', "0000000000000000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'q', "0100000000000000",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'q', "ffffffffffffffff",
     "01 ff ffff ffffffff ffffffffffffffff ff ffff ffffffff ffffffffffffffff 00bc 000080bf 000000000000f0bf 000080bf00000000 000000000000f0bf0000000000000000"},
    {'q', "c800000000000000",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'q', "2c01000000000000",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'q', "e0ff000000000000",
     "01 e0 e0ff e0ff0000 e0ff000000000000 e0 e0ff e0ff0000 e0ff000000000000 ff7b 00e07f47 0000000000fcef40 00e07f4700000000 0000000000fcef400000000000000000"},
    {'q', "7011010000000000",
     "01 70 7011 70110100 7011010000000000 70 7011 70110100 7011010000000000 007c 00b88847 000000000017f140 00b8884700000000 000000000017f1400000000000000000"},
    {'q', "00a22f4dffffffff",
     "01 00 00a2 00a22f4d 00a22f4dffffffff 00 00a2 00a22f4d 00a22f4dffffffff 00fc 5ed032cf 000000c00b5ae6c1 5ed032cf00000000 000000c00b5ae6c10000000000000000"},
    {'B', "00",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'B', "01",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'B', "c8",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'H', "0000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'H', "0100",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'H', "c800",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'H', "2c01",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'H', "e0ff",
     "01 e0 e0ff e0ff0000 e0ff000000000000 e0 e0ff e0ff0000 e0ff000000000000 ff7b 00e07f47 0000000000fcef40 00e07f4700000000 0000000000fcef400000000000000000"},
    {'I', "00000000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'I', "01000000",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'I', "c8000000",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'I', "2c010000",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'I', "e0ff0000",
     "01 e0 e0ff e0ff0000 e0ff000000000000 e0 e0ff e0ff0000 e0ff000000000000 ff7b 00e07f47 0000000000fcef40 00e07f4700000000 0000000000fcef400000000000000000"},
    {'I', "70110100",
     "01 70 7011 70110100 7011010000000000 70 7011 70110100 7011010000000000 007c 00b88847 000000000017f140 00b8884700000000 000000000017f1400000000000000000"},
    {'Q', "0000000000000000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'Q', "0100000000000000",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'Q', "c800000000000000",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'Q', "2c01000000000000",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'Q', "e0ff000000000000",
     "01 e0 e0ff e0ff0000 e0ff000000000000 e0 e0ff e0ff0000 e0ff000000000000 ff7b 00e07f47 0000000000fcef40 00e07f4700000000 0000000000fcef400000000000000000"},
    {'Q', "7011010000000000",
     "01 70 7011 70110100 7011010000000000 70 7011 70110100 7011010000000000 007c 00b88847 000000000017f140 00b8884700000000 000000000017f1400000000000000000"},
    {'e', "0000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'e', "003c",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'e', "00bc",
     "01 ff ffff ffffffff ffffffffffffffff ff ffff ffffffff ffffffffffffffff 00bc 000080bf 000000000000f0bf 000080bf00000000 000000000000f0bf0000000000000000"},
    {'e', "0041",
     "01 02 0200 02000000 0200000000000000 02 0200 02000000 0200000000000000 0041 00002040 0000000000000440 0000204000000000 00000000000004400000000000000000"},
    {'e', "00c1",
     "01 fe feff feffffff feffffffffffffff fe feff feffffff feffffffffffffff 00c1 000020c0 00000000000004c0 000020c000000000 00000000000004c00000000000000000"},
    {'e', "405a",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'e', "b05c",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'e', "ff7b",
     "01 e0 e0ff e0ff0000 e0ff000000000000 e0 e0ff e0ff0000 e0ff000000000000 ff7b 00e07f47 0000000000fcef40 00e07f4700000000 0000000000fcef400000000000000000"},
    {'e', "007c",
     "01 - - - - - - - - 007c 0000807f 000000000000f07f 0000807f00000000 000000000000f07f0000000000000000"},
    {'e', "00fc",
     "01 - - - - - - - - 00fc 000080ff 000000000000f0ff 000080ff00000000 000000000000f0ff0000000000000000"},
    {'e', "662e",
     "01 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 662e 00c0cc3d 000000000098b93f 00c0cc3d00000000 000000000098b93f0000000000000000"},
    {'e', "007e",
     "01 - - - - - - - - 007e 0000c07f 000000000000f87f 0000c07f00000000 000000000000f87f0000000000000000"},
    {'e', "007c",
     "01 - - - - - - - - 007c 0000807f 000000000000f07f 0000807f00000000 000000000000f07f0000000000000000"},
    {'e', "5535",
     "01 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 5535 00a0aa3e 000000000054d53f 00a0aa3e00000000 000000000054d53f0000000000000000"},
    {'f', "00000000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'f', "0000803f",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'f', "000080bf",
     "01 ff ffff ffffffff ffffffffffffffff ff ffff ffffffff ffffffffffffffff 00bc 000080bf 000000000000f0bf 000080bf00000000 000000000000f0bf0000000000000000"},
    {'f', "00002040",
     "01 02 0200 02000000 0200000000000000 02 0200 02000000 0200000000000000 0041 00002040 0000000000000440 0000204000000000 00000000000004400000000000000000"},
    {'f', "000020c0",
     "01 fe feff feffffff feffffffffffffff fe feff feffffff feffffffffffffff 00c1 000020c0 00000000000004c0 000020c000000000 00000000000004c00000000000000000"},
    {'f', "00004843",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'f', "00009643",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'f', "00e07f47",
     "01 e0 e0ff e0ff0000 e0ff000000000000 e0 e0ff e0ff0000 e0ff000000000000 ff7b 00e07f47 0000000000fcef40 00e07f4700000000 0000000000fcef400000000000000000"},
    {'f', "00b88847",
     "01 70 7011 70110100 7011010000000000 70 7011 70110100 7011010000000000 007c 00b88847 000000000017f140 00b8884700000000 000000000017f1400000000000000000"},
    {'f', "5ed032cf",
     "01 - - - 00a22f4dffffffff - - - 00a22f4dffffffff 00fc 5ed032cf 000000c00b5ae6c1 5ed032cf00000000 000000c00b5ae6c10000000000000000"},
    {'f', "cdcccc3d",
     "01 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 662e cdcccc3d 000000a09999b93f cdcccc3d00000000 000000a09999b93f0000000000000000"},
    {'f', "0000c07f",
     "01 - - - - - - - - 007e 0000c07f 000000000000f87f 0000c07f00000000 000000000000f87f0000000000000000"},
    {'f', "0000807f",
     "01 - - - - - - - - 007c 0000807f 000000000000f07f 0000807f00000000 000000000000f07f0000000000000000"},
    {'f', "abaaaa3e",
     "01 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 5535 abaaaa3e 000000605555d53f abaaaa3e00000000 000000605555d53f0000000000000000"},
    {'d', "0000000000000000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'d', "000000000000f03f",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'d', "000000000000f0bf",
     "01 ff ffff ffffffff ffffffffffffffff ff ffff ffffffff ffffffffffffffff 00bc 000080bf 000000000000f0bf 000080bf00000000 000000000000f0bf0000000000000000"},
    {'d', "0000000000000440",
     "01 02 0200 02000000 0200000000000000 02 0200 02000000 0200000000000000 0041 00002040 0000000000000440 0000204000000000 00000000000004400000000000000000"},
    {'d', "00000000000004c0",
     "01 fe feff feffffff feffffffffffffff fe feff feffffff feffffffffffffff 00c1 000020c0 00000000000004c0 000020c000000000 00000000000004c00000000000000000"},
    {'d', "0000000000006940",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'d', "0000000000c07240",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'d', "0000000000fcef40",
     "01 e0 e0ff e0ff0000 e0ff000000000000 e0 e0ff e0ff0000 e0ff000000000000 ff7b 00e07f47 0000000000fcef40 00e07f4700000000 0000000000fcef400000000000000000"},
    {'d', "000000000017f140",
     "01 70 7011 70110100 7011010000000000 70 7011 70110100 7011010000000000 007c 00b88847 000000000017f140 00b8884700000000 000000000017f1400000000000000000"},
    {'d', "000000c00b5ae6c1",
     "01 - - - 00a22f4dffffffff - - - 00a22f4dffffffff 00fc 5ed032cf 000000c00b5ae6c1 5ed032cf00000000 000000c00b5ae6c10000000000000000"},
    {'d', "9a9999999999b93f",
     "01 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 662e cdcccc3d 9a9999999999b93f cdcccc3d00000000 9a9999999999b93f0000000000000000"},
    {'d', "000000000000f87f",
     "01 - - - - - - - - 007e 0000c07f 000000000000f87f 0000c07f00000000 000000000000f87f0000000000000000"},
    {'d', "000000000000f07f",
     "01 - - - - - - - - 007c 0000807f 000000000000f07f 0000807f00000000 000000000000f07f0000000000000000"},
    {'d', "555555555555d53f",
     "01 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 5535 abaaaa3e 555555555555d53f abaaaa3e00000000 555555555555d53f0000000000000000"},
    {'F', "0000000000000000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'F', "0000803f00000000",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'F', "000080bf00000000",
     "01 ff ffff ffffffff ffffffffffffffff ff ffff ffffffff ffffffffffffffff 00bc 000080bf 000000000000f0bf 000080bf00000000 000000000000f0bf0000000000000000"},
    {'F', "0000204000000000",
     "01 02 0200 02000000 0200000000000000 02 0200 02000000 0200000000000000 0041 00002040 0000000000000440 0000204000000000 00000000000004400000000000000000"},
    {'F', "000020c000000000",
     "01 fe feff feffffff feffffffffffffff fe feff feffffff feffffffffffffff 00c1 000020c0 00000000000004c0 000020c000000000 00000000000004c00000000000000000"},
    {'F', "0000484300000000",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'F', "0000964300000000",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'F', "00e07f4700000000",
     "01 e0 e0ff e0ff0000 e0ff000000000000 e0 e0ff e0ff0000 e0ff000000000000 ff7b 00e07f47 0000000000fcef40 00e07f4700000000 0000000000fcef400000000000000000"},
    {'F', "00b8884700000000",
     "01 70 7011 70110100 7011010000000000 70 7011 70110100 7011010000000000 007c 00b88847 000000000017f140 00b8884700000000 000000000017f1400000000000000000"},
    {'F', "5ed032cf00000000",
     "01 - - - 00a22f4dffffffff - - - 00a22f4dffffffff 00fc 5ed032cf 000000c00b5ae6c1 5ed032cf00000000 000000c00b5ae6c10000000000000000"},
    {'F', "cdcccc3d00000000",
     "01 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 662e cdcccc3d 000000a09999b93f cdcccc3d00000000 000000a09999b93f0000000000000000"},
    {'F', "0000c07f00000000",
     "01 - - - - - - - - 007e 0000c07f 000000000000f87f 0000c07f00000000 000000000000f87f0000000000000000"},
    {'F', "0000807f00000000",
     "01 - - - - - - - - 007c 0000807f 000000000000f07f 0000807f00000000 000000000000f07f0000000000000000"},
    {'F', "abaaaa3e00000000",
     "01 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 5535 abaaaa3e 000000605555d53f abaaaa3e00000000 000000605555d53f0000000000000000"},
    {'D', "00000000000000000000000000000000",
     "00 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 0000 00000000 0000000000000000 0000000000000000 00000000000000000000000000000000"},
    {'D', "000000000000f03f0000000000000000",
     "01 01 0100 01000000 0100000000000000 01 0100 01000000 0100000000000000 003c 0000803f 000000000000f03f 0000803f00000000 000000000000f03f0000000000000000"},
    {'D', "000000000000f0bf0000000000000000",
     "01 ff ffff ffffffff ffffffffffffffff ff ffff ffffffff ffffffffffffffff 00bc 000080bf 000000000000f0bf 000080bf00000000 000000000000f0bf0000000000000000"},
    {'D', "00000000000004400000000000000000",
     "01 02 0200 02000000 0200000000000000 02 0200 02000000 0200000000000000 0041 00002040 0000000000000440 0000204000000000 00000000000004400000000000000000"},
    {'D', "00000000000004c00000000000000000",
     "01 fe feff feffffff feffffffffffffff fe feff feffffff feffffffffffffff 00c1 000020c0 00000000000004c0 000020c000000000 00000000000004c00000000000000000"},
    {'D', "00000000000069400000000000000000",
     "01 c8 c800 c8000000 c800000000000000 c8 c800 c8000000 c800000000000000 405a 00004843 0000000000006940 0000484300000000 00000000000069400000000000000000"},
    {'D', "0000000000c072400000000000000000",
     "01 2c 2c01 2c010000 2c01000000000000 2c 2c01 2c010000 2c01000000000000 b05c 00009643 0000000000c07240 0000964300000000 0000000000c072400000000000000000"},
    {'D', "0000000000fcef400000000000000000",
     "01 e0 e0ff e0ff0000 e0ff000000000000 e0 e0ff e0ff0000 e0ff000000000000 ff7b 00e07f47 0000000000fcef40 00e07f4700000000 0000000000fcef400000000000000000"},
    {'D', "000000000017f1400000000000000000",
     "01 70 7011 70110100 7011010000000000 70 7011 70110100 7011010000000000 007c 00b88847 000000000017f140 00b8884700000000 000000000017f1400000000000000000"},
    {'D', "000000c00b5ae6c10000000000000000",
     "01 - - - 00a22f4dffffffff - - - 00a22f4dffffffff 00fc 5ed032cf 000000c00b5ae6c1 5ed032cf00000000 000000c00b5ae6c10000000000000000"},
    {'D', "9a9999999999b93f0000000000000000",
     "01 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 662e cdcccc3d 9a9999999999b93f cdcccc3d00000000 9a9999999999b93f0000000000000000"},
    {'D', "000000000000f87f0000000000000000",
     "01 - - - - - - - - 007e 0000c07f 000000000000f87f 0000c07f00000000 000000000000f87f0000000000000000"},
    {'D', "000000000000f07f0000000000000000",
     "01 - - - - - - - - 007c 0000807f 000000000000f07f 0000807f00000000 000000000000f07f0000000000000000"},
    {'D', "555555555555d53f0000000000000000",
     "01 00 0000 00000000 0000000000000000 00 0000 00000000 0000000000000000 5535 abaaaa3e 555555555555d53f abaaaa3e00000000 555555555555d53f0000000000000000"},
};

#endif
