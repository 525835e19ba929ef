/* ember math: per-device vendor-library handles (lib_handle.h). */
#include "math/lib_handle.h"
#include "ember/util.h"

em_status em_lib_handle_take(em_lib_handles *t, em_stream *s,
                             em_lib_handle **out)
{
    em_device *dev = em_stream_device(s);
    int id = em_device_get_id(dev);
    em_lib_handle *slot;
    em_status st;

    *out = NULL;
    if (id < 0 || id >= EM_LIB_DEVICES)
        return em_error(EM_ERR_NOT_SUPPORTED, "%s: %s is past the %d devices "
                        "ember's %s handles cover", t->lib,
                        em_device_name(dev), EM_LIB_DEVICES, t->lib);
    slot = &t->slot[id];
    pthread_mutex_lock(&slot->lock);
    if ((st = em_device_enter(dev)) == EM_OK && !slot->h)
        st = t->create(slot);
    if (st == EM_OK)
        st = t->bind(slot->h, em_stream_native(s));
    if (st != EM_OK) {
        pthread_mutex_unlock(&slot->lock);
        return st;
    }
    *out = slot;
    return EM_OK;
}

void em_lib_handle_give(em_lib_handle *slot)
{
    if (slot)
        pthread_mutex_unlock(&slot->lock);
}
