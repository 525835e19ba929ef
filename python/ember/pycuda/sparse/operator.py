"""PyCUDA's linear operators for conjugate gradients' preconditioners."""


class OperatorBase:
    @property
    def dtype(self):
        raise NotImplementedError

    @property
    def shape(self):
        raise NotImplementedError


class IdentityOperator(OperatorBase):
    def __init__(self, dtype, n):
        self._dtype, self._n = dtype, n

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._n, self._n

    def __call__(self, operand):
        return operand


class DiagonalPreconditioner(OperatorBase):
    """x -> diagonal * x (elementwise)."""

    def __init__(self, diagonal):
        self.diagonal = diagonal

    @property
    def dtype(self):
        return self.diagonal.dtype

    @property
    def shape(self):
        return self.diagonal.shape[0], self.diagonal.shape[0]

    def __call__(self, operand):
        return self.diagonal * operand
