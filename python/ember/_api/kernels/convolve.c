/* One output of a full 1-d convolution, out[k] = sum_j a[k - j] * v[j] over
 * the j that keep both indices in range; k = i + off picks the mode's
 * window (full, same or valid). T is a real dtype: complex inputs are
 * four real convolutions (ember/_api/calculus.py). */
/* operation */
long long k = (long long)i + off, j0 = k - (n - 1), j1 = k < m - 1 ? k : m - 1, j;
T acc = (T)0;
if (j0 < 0)
    j0 = 0;
for (j = j0; j <= j1; j++)
    acc += a[k - j] * v[j];
out = acc;
