import { startFixtureWeb } from '@mono-agent/fixture-web';

const web = await startFixtureWeb();
console.log(web.url('/pages/news-article'));
setInterval(() => {}, 100000);
