/* The `starters` search of whist_search.py, in C, for the head counts where Python takes hours (48 to 64).

   Build and run (prints the base round as a Python tuple, for whist_data.py; whist_search.check verifies it):
       gcc -O2 -o /tmp/whist_starters tournament/engine/whist_starters.c
       /tmp/whist_starters V [SEED]

   Over Z_m (m = V for 4n+1 players, V-1 plus a fixed point "infinity" for 4n): a random starter pairs the
   non-zero elements so that the pair differences cover each class {d, -d} once (the partnerships; with infinity,
   0 is infinity's partner), then a depth-first search, the pair with the fewest open tables first, puts the pairs
   two by two at tables so that every opponent class is reached exactly twice. A starter that yields nothing within
   a node budget is dropped for a fresh one. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXM 128

static int m, k, single;
static int pair_a[MAXM], pair_b[MAXM];
static unsigned char cross[MAXM][MAXM][4];
static int reached[MAXM];
static int freeset[MAXM], match_to[MAXM];
static long nodes, budget;

static unsigned long long rng_state;
static unsigned rnd(void) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(rng_state >> 33);
}

static int cls(int d) {
    d %= m;
    if (d < 0) d += m;
    return d < m - d ? d : m - d;
}

/* ---- a random starter ---- */
static int used_class[MAXM], taken[MAXM];

static int starter(int count) {
    int x = -1;
    for (int i = 1; i < m; i++)
        if (!taken[i]) { x = i; break; }
    if (x < 0) return 1;
    int options[MAXM], n = 0;
    for (int y = x + 1; y < m; y++)
        if (!taken[y] && !used_class[cls(x - y)]) options[n++] = y;
    for (int i = n - 1; i > 0; i--) {
        int j = rnd() % (i + 1), t = options[i];
        options[i] = options[j];
        options[j] = t;
    }
    for (int i = 0; i < n && i < 6; i++) {
        int y = options[i], c = cls(x - y);
        taken[x] = taken[y] = 1;
        used_class[c] = 1;
        pair_a[count] = x;
        pair_b[count] = y;
        if (starter(count + 1)) return 1;
        taken[x] = taken[y] = 0;
        used_class[c] = 0;
    }
    return 0;
}

/* ---- tables for the starter's pairs ---- */
static int fits(int i, int j) {
    unsigned char *c = cross[i][j];
    for (int a = 0; a < 4; a++) {
        int extra = 0;
        for (int b = 0; b < 4; b++) extra += c[b] == c[a];
        if (reached[c[a]] + extra > 2) return 0;
    }
    return 1;
}

static int match(int left) {
    if (left == 0) return 1;
    if (++nodes > budget) return 0;
    int best = -1, best_n = MAXM + 1, best_opts[MAXM];
    for (int i = 0; i < k; i++) {
        if (!freeset[i]) continue;
        int opts[MAXM], n = 0;
        for (int j = 0; j < k; j++)
            if (j != i && freeset[j] && fits(i, j)) opts[n++] = j;
        if (n < best_n) {
            best = i;
            best_n = n;
            memcpy(best_opts, opts, sizeof(int) * n);
            if (n == 0) return 0;
        }
    }
    int i = best;
    for (int o = 0; o < best_n; o++) {
        int j = best_opts[o];
        unsigned char *c = cross[i][j];
        for (int a = 0; a < 4; a++) reached[c[a]]++;
        freeset[i] = freeset[j] = 0;
        match_to[i] = j;
        match_to[j] = i;
        if (match(left - 2)) return 1;
        freeset[i] = freeset[j] = 1;
        for (int a = 0; a < 4; a++) reached[c[a]]--;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s V [SEED]\n", argv[0]);
        return 2;
    }
    int v = atoi(argv[1]);
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : (unsigned long long)v;
    single = v % 4 == 0;
    m = single ? v - 1 : v;
    if (v % 4 > 1 || m % 2 == 0 || m >= MAXM) {
        fprintf(stderr, "V must be 4n or 4n+1 with an odd group order below %d\n", MAXM);
        return 2;
    }
    budget = 200000;
    for (long attempt = 1;; attempt++) {
        memset(used_class, 0, sizeof used_class);
        memset(taken, 0, sizeof taken);
        if (!starter(0)) continue;
        k = (m - 1) / 2;
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++) {
                int a = pair_a[i], c = pair_b[i], b = pair_a[j], d = pair_b[j];
                cross[i][j][0] = cls(a - b);
                cross[i][j][1] = cls(a - d);
                cross[i][j][2] = cls(c - b);
                cross[i][j][3] = cls(c - d);
            }
        for (int lone = single ? 0 : -1; lone < (single ? k : 0); lone++) {
            memset(reached, 0, sizeof reached);
            for (int i = 0; i < k; i++) freeset[i] = 1;
            int left = k;
            if (lone >= 0) {
                int c1 = cls(pair_a[lone]), c2 = cls(pair_b[lone]);
                if (c1 == c2) continue;
                reached[c1]++;
                reached[c2]++;
                freeset[lone] = 0;
                left--;
            }
            nodes = 0;
            if (match(left)) {
                printf("%d %ld (", v, attempt);
                if (lone >= 0) printf("(%d, %d, 0, %d), ", m, pair_a[lone], pair_b[lone]);
                for (int i = 0; i < k; i++)
                    if (i != lone && match_to[i] > i)
                        printf("(%d, %d, %d, %d), ", pair_a[i], pair_a[match_to[i]], pair_b[i], pair_b[match_to[i]]);
                printf(")\n");
                return 0;
            }
        }
    }
}
