"""The app's kernel manager (``make app``: see ``wbk.publish``), which the Voila server loads.

Voila's pool hands a reader a kernel that ran the chapter before the reader came, maybe hours
ago: by its last activity it has been idle all that time, and until the reader's page connects
it has no connection either, so a cull sweep in those first seconds (many on a busy machine)
would shut it down under the reader. Here a kernel's idle time counts from the first sweep that
sees it out of its pool (Voila's own manager never lets a sweep reach a pooled kernel).
"""

from __future__ import annotations

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager


class ReaderKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager, whose cull spares a kernel the first time it sees it."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._seen: set[str] = set()

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        if kernel_id not in self._seen:
            self._seen = {k for k in self._seen if k in self._kernels} | {kernel_id}
            kernel = self._kernels.get(kernel_id)
            if kernel is not None:
                kernel.last_activity = utcnow()
            return
        await super().cull_kernel_if_idle(kernel_id)
