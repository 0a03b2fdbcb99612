# The gateway image: one image, the role chosen by the command (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production LOCAL_SERVICES=off
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY app ./app
COPY adapters ./adapters
COPY graphql ./graphql
COPY jobs ./jobs
# The operator console, built now: `npm start` then finds it up to date and never writes.
COPY console ./console
RUN npm run build:console
USER node
EXPOSE 4000
CMD ["npm", "start"]
