# Build a static binary, then run it as a non-root user with the database
# on a volume.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/topochess ./cmd/topochess \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/topochess /usr/local/bin/topochess
COPY config.example.yaml /etc/topochess/config.yaml
# The database directory belongs to the unprivileged user, so a fresh
# volume mounted there is writable.
COPY --from=build --chown=65532:65532 /out/data /data
VOLUME ["/data"]
ENV TOPOCHESS_STORAGE_PATH=/data/topochess.db
USER nonroot:nonroot
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/topochess"]
CMD ["serve", "--config", "/etc/topochess/config.yaml"]
