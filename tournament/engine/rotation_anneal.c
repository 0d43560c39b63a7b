/* Simulated annealing over a whole rotation night with byes, for `rotation_search.py` (which compiles and runs it;
   the chart engine only reads the nights it stores in `rotation_data.py`).

       gcc -O2 -o /tmp/rotation_anneal tournament/engine/rotation_anneal.c
       /tmp/rotation_anneal V GAMES SEED MOVES WP WO WV WT WS BYEMOVES [RENUMBER < night]

   V players 0..V-1, GAMES games, T = V / 4 tables of four (N, E, S, W: N-S and E-W partner) and R = V % 4 byes a
   game. The byes start as a rotation (game g: players gR .. gR+R-1 mod V) and, with BYEMOVES, may move between two
   players and two games so every player keeps their number of byes, nobody sits out twice running and the byes
   stay within one of each other after every game (a night cut short keeps them even).

   The cost, each term weighted (lexicographic in effect: WP >> WO >> WV >> WT, WS):
     WP  for each partnership beyond the first of a pair;
     WO  d^3 for each pair whose opponent count is d outside [lo, hi] (the average over all pairs rounded down, up);
     WV  (visits - average)^2 for each player and table (every player plays the same number of games);
     WT  for each repeat of three players at one table;
     WS  for each stay (a player at the same table two games running).
   Moves: two players of one game change seats (another table, or another seat at the same table: new partners);
   two partnerships of one game change tables;
   two tables of one game change numbers; a bye and a seat change hands between two players in two games.
   The temperature falls geometrically from WO to min(WT, WS) / 10 over MOVES moves; the best night seen is printed, one game
   a line: the byes, "|", then each table's N E S W. With RENUMBER the night to start from is read from stdin in that
   form, and the table numbers alone are then annealed for RENUMBER moves (after MOVES moves of every kind). */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 40
#define MAXG 40
#define MAXT 10

static int V, G, T, R, byemoves;
static double WP, WO, WV, WT, WS;
static int lo, hi, avgvis;
static int seat[MAXG][MAXT * 4];   /* player at table t seat s: index t*4+s */
static int out[MAXG][4];           /* byes */
static int pos[MAXG][MAXV];        /* seat index of player, or -1 - k for bye slot k */
static int part[MAXV][MAXV], opp[MAXV][MAXV], vis[MAXV][MAXT];
static unsigned char trio[MAXV][MAXV][MAXV];
static double cost;

static int best_seat[MAXG][MAXT * 4], best_out[MAXG][4];

static unsigned long long rng_state;
static unsigned rnd(void) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(rng_state >> 33);
}
static double unit(void) { return (rnd() + 0.5) / 2147483648.0; }

static double opp_cost(int c) {
    int d = c < lo ? lo - c : (c > hi ? c - hi : 0);
    return WO * d * d * d;
}

/* Add (sign +1) or take away (-1) one table's counts; returns the change in cost. */
static double table_counts(int g, int t, int sign) {
    int *p = &seat[g][t * 4];
    double delta = 0;
    static const int pa[2][2] = {{0, 2}, {1, 3}};
    static const int op[4][2] = {{0, 1}, {0, 3}, {2, 1}, {2, 3}};
    for (int k = 0; k < 2; k++) {
        int a = p[pa[k][0]], b = p[pa[k][1]];
        int before = part[a][b], after = before + sign;
        delta += WP * ((after > 1 ? after - 1 : 0) - (before > 1 ? before - 1 : 0));
        part[a][b] = part[b][a] = after;
    }
    for (int k = 0; k < 4; k++) {
        int a = p[op[k][0]], b = p[op[k][1]];
        int before = opp[a][b], after = before + sign;
        delta += opp_cost(after) - opp_cost(before);
        opp[a][b] = opp[b][a] = after;
    }
    for (int k = 0; k < 4; k++) {
        int x = p[k], before = vis[x][t], after = before + sign;
        delta += WV * ((after - avgvis) * (after - avgvis) - (before - avgvis) * (before - avgvis));
        vis[x][t] = after;
    }
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            for (int k = j + 1; k < 4; k++) {
                int s[3] = {p[i], p[j], p[k]};
                /* sort three */
                if (s[0] > s[1]) { int u = s[0]; s[0] = s[1]; s[1] = u; }
                if (s[1] > s[2]) { int u = s[1]; s[1] = s[2]; s[2] = u; }
                if (s[0] > s[1]) { int u = s[0]; s[0] = s[1]; s[1] = u; }
                int before = trio[s[0]][s[1]][s[2]], after = before + sign;
                delta += WT * ((after > 1 ? after - 1 : 0) - (before > 1 ? before - 1 : 0));
                trio[s[0]][s[1]][s[2]] = (unsigned char)after;
            }
    return delta;
}

/* Stays of player x between games g and g+1. */
static int stay(int g, int x) {
    if (g < 0 || g + 1 >= G) return 0;
    int a = pos[g][x], b = pos[g + 1][x];
    return a >= 0 && b >= 0 && a / 4 == b / 4;
}

static int stays_around(int g, const int *xs, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += stay(g - 1, xs[i]) + stay(g, xs[i]);
    return s;
}

static void place(int g, int idx, int x) {
    seat[g][idx] = x;
    pos[g][x] = idx;
}

static int out_at(int g, int x) { return g >= 0 && g < G && pos[g][x] < 0; }

static double full_cost(void) {
    memset(part, 0, sizeof part);
    memset(opp, 0, sizeof opp);
    memset(vis, 0, sizeof vis);
    memset(trio, 0, sizeof trio);
    double c = 0;
    for (int a = 0; a < V; a++)
        for (int b = a + 1; b < V; b++) c += opp_cost(0);
    for (int x = 0; x < V; x++)
        for (int t = 0; t < T; t++) c += WV * avgvis * avgvis;
    for (int g = 0; g < G; g++)
        for (int t = 0; t < T; t++) c += table_counts(g, t, 1);
    for (int g = 0; g + 1 < G; g++)
        for (int x = 0; x < V; x++) c += WS * stay(g, x);
    return c;
}

static void save_best(void) {
    memcpy(best_seat, seat, sizeof seat);
    memcpy(best_out, out, sizeof out);
}

/* Tables a and b of game g change numbers if the annealing accepts it at this temperature. */
static void renumber(int g, int a, int b, double temp) {
    int xs[8];
    for (int k = 0; k < 4; k++) xs[k] = seat[g][a * 4 + k], xs[4 + k] = seat[g][b * 4 + k];
    double delta = -WS * stays_around(g, xs, 8);
    delta += table_counts(g, a, -1) + table_counts(g, b, -1);
    for (int k = 0; k < 4; k++) place(g, a * 4 + k, xs[4 + k]), place(g, b * 4 + k, xs[k]);
    delta += table_counts(g, a, 1) + table_counts(g, b, 1);
    delta += WS * stays_around(g, xs, 8);
    if (delta <= 0 || unit() < exp(-delta / temp)) {
        cost += delta;
    } else {
        table_counts(g, a, -1);
        table_counts(g, b, -1);
        for (int k = 0; k < 4; k++) place(g, a * 4 + k, xs[k]), place(g, b * 4 + k, xs[4 + k]);
        table_counts(g, a, 1);
        table_counts(g, b, 1);
    }
}

static void restore_best(void) {
    memcpy(seat, best_seat, sizeof seat);
    memcpy(out, best_out, sizeof out);
    for (int g = 0; g < G; g++) {
        for (int k = 0; k < R; k++) pos[g][out[g][k]] = -1 - k;
        for (int i = 0; i < 4 * T; i++) pos[g][seat[g][i]] = i;
    }
}

/* byes[k][x]: x's byes in games 0..k. A trade (x out in g and playing h, y the other way round) moves one bye of
   x's from g to h and one of y's from h to g: the counts change for the games between. */
static int byes[MAXG][MAXV];

static int prefixes_even(int g, int h, int x, int y) {
    int from = g < h ? g : h, to = g < h ? h : g;
    int down = g < h ? x : y, up = g < h ? y : x;
    for (int k = from; k < to; k++) {
        int lo_ = 1 << 30, hi_ = -1;
        for (int z = 0; z < V; z++) {
            int c = byes[k][z] - (z == down) + (z == up);
            if (c < lo_) lo_ = c;
            if (c > hi_) hi_ = c;
        }
        if (hi_ - lo_ > 1) return 0;
    }
    return 1;
}

static void trade_prefixes(int g, int h, int x, int y) {
    int from = g < h ? g : h, to = g < h ? h : g;
    int down = g < h ? x : y, up = g < h ? y : x;
    for (int k = from; k < to; k++) byes[k][down]--, byes[k][up]++;
}

int main(int argc, char **argv) {
    if (argc < 11) {
        fprintf(stderr, "usage: V GAMES SEED MOVES WP WO WV WT WS BYEMOVES\n");
        return 2;
    }
    V = atoi(argv[1]);
    G = atoi(argv[2]);
    rng_state = strtoull(argv[3], 0, 10) * 2654435761ULL + 12345;
    long moves = atol(argv[4]);
    WP = atof(argv[5]);
    WO = atof(argv[6]);
    WV = atof(argv[7]);
    WT = atof(argv[8]);
    WS = atof(argv[9]);
    byemoves = atoi(argv[10]);
    T = V / 4;
    R = V % 4;
    if (V > MAXV || G > MAXG || T > MAXT || T < 1) return 2;
    int total = 4 * T * G; /* opponent meetings: 4 per table */
    int pairs = V * (V - 1) / 2;
    lo = total / pairs;
    hi = (total + pairs - 1) / pairs;
    avgvis = (G - R * G / V) / T; /* every player plays the same number of games when V divides R*G */

    /* byes by rotation, seats at random */
    for (int g = 0; g < G; g++) {
        int playing[MAXV], n = 0, isout[MAXV] = {0};
        for (int k = 0; k < R; k++) {
            int x = (g * R + k) % V;
            out[g][k] = x;
            isout[x] = 1;
            pos[g][x] = -1 - k;
        }
        for (int x = 0; x < V; x++)
            if (!isout[x]) playing[n++] = x;
        for (int i = n - 1; i > 0; i--) {
            int j = rnd() % (i + 1), u = playing[i];
            playing[i] = playing[j];
            playing[j] = u;
        }
        for (int i = 0; i < n; i++) place(g, i, playing[i]);
    }
    if (argc > 11) { /* a night to start from, on stdin as printed below (without the cost line) */
        for (int g = 0; g < G; g++) {
            for (int k = 0; k < R; k++) {
                if (scanf("%d", &out[g][k]) != 1) return 3;
                pos[g][out[g][k]] = -1 - k;
            }
            if (scanf(" |") != 0) return 3;
            for (int i = 0; i < 4 * T; i++) {
                int x;
                if (scanf("%d", &x) != 1) return 3;
                place(g, i, x);
            }
        }
    }
    for (int g = 0; g < G; g++)
        for (int x = 0; x < V; x++) byes[g][x] = (g ? byes[g - 1][x] : 0) + (pos[g][x] < 0);
    cost = full_cost();
    double best = cost;
    save_best();
    double t0 = WO, t1 = fmin(WT, WS) / 10.0;
    if (t1 <= 0) t1 = 0.01;
    double ratio = moves > 0 ? pow(t1 / t0, 1.0 / (double)moves) : 1;
    double temp = t0;
    int S = 4 * T;
    for (long it = 0; it < moves; it++, temp *= ratio) {
        int kind = rnd() % 10;
        if (kind >= 4 && kind < 7 && T > 1) {
            /* two partnerships of one game change tables */
            int g = rnd() % G, a = rnd() % T, b = rnd() % T;
            if (a == b) continue;
            int sa = rnd() % 2, sb = rnd() % 2;
            int ia = a * 4 + sa, ja = a * 4 + sa + 2, ib = b * 4 + sb, jb = b * 4 + sb + 2;
            int xs[4] = {seat[g][ia], seat[g][ja], seat[g][ib], seat[g][jb]};
            double delta = -WS * stays_around(g, xs, 4);
            delta += table_counts(g, a, -1) + table_counts(g, b, -1);
            place(g, ia, xs[2]), place(g, ja, xs[3]), place(g, ib, xs[0]), place(g, jb, xs[1]);
            delta += table_counts(g, a, 1) + table_counts(g, b, 1);
            delta += WS * stays_around(g, xs, 4);
            if (delta <= 0 || unit() < exp(-delta / temp)) {
                cost += delta;
            } else {
                table_counts(g, a, -1);
                table_counts(g, b, -1);
                place(g, ia, xs[0]), place(g, ja, xs[1]), place(g, ib, xs[2]), place(g, jb, xs[3]);
                table_counts(g, a, 1);
                table_counts(g, b, 1);
            }
        } else if (kind < 7 || (kind == 9 && (!byemoves || R == 0))) {
            /* two seats of one game */
            int g = rnd() % G, i = rnd() % S, j = rnd() % S;
            if (i == j || (i / 4 == j / 4 && (i % 2) == (j % 2))) continue; /* same seat, or partners swapping */
            int ti = i / 4, tj = j / 4, x = seat[g][i], y = seat[g][j];
            int xs[2] = {x, y};
            double delta = -WS * stays_around(g, xs, 2);
            delta += table_counts(g, ti, -1);
            if (tj != ti) delta += table_counts(g, tj, -1);
            place(g, i, y);
            place(g, j, x);
            delta += table_counts(g, ti, 1);
            if (tj != ti) delta += table_counts(g, tj, 1);
            delta += WS * stays_around(g, xs, 2);
            if (delta <= 0 || unit() < exp(-delta / temp)) {
                cost += delta;
            } else {
                table_counts(g, ti, -1);
                if (tj != ti) table_counts(g, tj, -1);
                place(g, i, x);
                place(g, j, y);
                table_counts(g, ti, 1);
                if (tj != ti) table_counts(g, tj, 1);
            }
        } else if (kind < 9) {
            /* two tables of one game change numbers */
            if (T < 2) continue;
            int g = rnd() % G, a = rnd() % T, b = rnd() % T;
            if (a == b) continue;
            renumber(g, a, b, temp);
        } else {
            /* x sits out game g and plays h, y the other way round: they trade both */
            int g = rnd() % G, h = rnd() % G;
            if (g == h) continue;
            int kx = rnd() % R, x = out[g][kx];
            if (pos[h][x] < 0) continue;
            int ky = rnd() % R, y = out[h][ky];
            if (pos[g][y] < 0) continue;
            /* nobody twice running after the trade */
            if (abs(g - h) == 1) continue;
            if (out_at(g - 1, y) || out_at(g + 1, y) || out_at(h - 1, x) || out_at(h + 1, x)) continue;
            if (!prefixes_even(g, h, x, y)) continue;
            int iy = pos[g][y], ix = pos[h][x], tg = iy / 4, th = ix / 4;
            int xs[2] = {x, y};
            double delta = -WS * (stays_around(g, xs, 2) + stays_around(h, xs, 2));
            delta += table_counts(g, tg, -1) + table_counts(h, th, -1);
            /* game g: x takes y's seat, y sits out; game h: y takes x's seat, x sits out */
            place(g, iy, x);
            out[g][kx] = y;
            pos[g][y] = -1 - kx;
            place(h, ix, y);
            out[h][ky] = x;
            pos[h][x] = -1 - ky;
            delta += table_counts(g, tg, 1) + table_counts(h, th, 1);
            delta += WS * (stays_around(g, xs, 2) + stays_around(h, xs, 2));
            if (delta <= 0 || unit() < exp(-delta / temp)) {
                cost += delta;
                trade_prefixes(g, h, x, y);
            } else {
                table_counts(g, tg, -1);
                table_counts(h, th, -1);
                place(g, iy, y);
                out[g][kx] = x;
                pos[g][x] = -1 - kx;
                place(h, ix, x);
                out[h][ky] = y;
                pos[h][y] = -1 - ky;
                table_counts(g, tg, 1);
                table_counts(h, th, 1);
            }
        }
        if (cost < best - 1e-9) {
            best = cost;
            save_best();
        }
    }
    restore_best();
    cost = full_cost();
    /* Then the table numbers alone (the visits and the stays), from the best night, a quarter as many moves. */
    if (T > 1) {
        long moves2 = argc > 11 ? atol(argv[11]) : moves / 4;
        temp = 2 * fmax(WV, WS);
        ratio = pow(t1 / temp, 1.0 / (double)moves2);
        for (long it = 0; it < moves2; it++, temp *= ratio) {
            int g = rnd() % G, a = rnd() % T, b = rnd() % T;
            if (a == b) continue;
            renumber(g, a, b, temp);
            if (cost < best - 1e-9) {
                best = cost;
                save_best();
            }
        }
        restore_best();
    }
    double check = full_cost();
    printf("cost %.1f check %.1f\n", best, check);
    for (int g = 0; g < G; g++) {
        for (int k = 0; k < R; k++) printf("%d ", out[g][k]);
        printf("|");
        for (int i = 0; i < S; i++) printf(" %d", seat[g][i]);
        printf("\n");
    }
    return 0;
}
