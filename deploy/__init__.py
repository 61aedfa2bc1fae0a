"""Serving the app to a lecture hall: several identical Streamlit servers behind HAProxy.

- ``python -m deploy.serve --replicas 2 --port 8600``: the replicas and the balancer on this
  machine, without containers (HAProxy from Debian's package); Ctrl-C stops them all.
- ``deploy/Dockerfile`` and ``deploy/compose.yaml``: the same with containers.
- ``deploy/haproxy.py``: the one place where the balancer's rules are written (sticky cookie,
  websocket, upload limit, health check); both ways of serving use its configuration.

See ``deploy/README.md``.
"""
