"""Launching ember.ml's own kernels (python/ember/ml/kernels/*.cuh) on the
stream the caller works on: `with device:` makes the device's default
stream current, so a launch inside it would leave a stream the caller
opened (neighbors' blocks run on two) and race the work queued there."""
import ember


def launch(dev, f, grid, block, args, shared_mem=0):
    """f(grid, block, args) on dev: on the current stream when it is dev's,
    else on dev's default stream."""
    st = ember.cuda.get_current_stream()
    if st.device == dev:
        f(grid, block, args, shared_mem=shared_mem, stream=st)
        return
    with dev:
        f(grid, block, args, shared_mem=shared_mem)
