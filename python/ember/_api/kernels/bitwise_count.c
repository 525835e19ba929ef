/* numpy.bitwise_count for one element: the 1-bits of |x| (NumPy counts a
 * negative number's magnitude). The magnitude is taken in unsigned
 * arithmetic, so the most negative value of each type has one bit set
 * instead of overflowing; __popcll is CUDA's, and the host prelude's. */
/* operation */
unsigned long long u = (unsigned long long)x;
if (x < 0)
    u = 0ull - u;
y = (unsigned char)__popcll(u);
